-- equijson_canonical(jsonb) -> text: the RFC 8785 (JCS) canonical form of a jsonb value,
-- byte for byte what `equijson canon` writes for the value's text.
--
-- Plain SQL and PL/pgSQL, no extension: runs on managed PostgreSQL (RDS, Cloud SQL,
-- Supabase), PostgreSQL 13 to 18. IMMUTABLE, PARALLEL SAFE, STRICT (NULL in, NULL out).
--
--   select sha256(convert_to(public.equijson_canonical(doc), 'UTF8')) from t;
--
-- Install: paste this file, or `equijson pg install-sql [--schema S]` (which writes the
-- same text with `public.` replaced by the schema, in one transaction). Running it again
-- replaces the functions. Remove with `equijson pg uninstall-sql` or the DROP statements
-- at the end of this file's README section.
--
-- Safety: every function runs with `search_path = pg_catalog, pg_temp`, so the operators
-- and functions it names unqualified are PostgreSQL's own, whoever can create objects in
-- other schemas (`public` on PostgreSQL 13 and 14). Install into a schema you own:
-- install-sql refuses a schema or functions of these names owned by another role.
--
-- How it works
-- * equijson_canonical (near the end of this file) runs the padding path, a handful of
--   string calls on the whole text (see the comment there); documents it does not take go
--   to equijson_canonical_split (the older text path), and the ones that cannot take
--   either go to equijson_canonical_levels:
-- * Structure: one pass per nesting level, no recursion. Level d's containers are expanded
--   by one query (jsonb_each / jsonb_array_elements), members sorted; then the levels are
--   assembled from the deepest up, one query per level. Nesting depth is limited only by
--   memory, never by max_stack_depth.
-- * Member order: RFC 8785 sorts names as arrays of UTF-16 code units. COLLATE "C" compares
--   code points, which agrees except that supplementary characters (U+10000 and up, two
--   surrogates D800..DFFF in UTF-16) must sort before U+E000..U+FFFF. The sort key
--   prefixes every supplementary character and every U+D7FF with U+D7FF: an
--   order-preserving, prefix-free code under code-point order. Names without such
--   characters are their own sort key.
-- * Strings: jsonb's text output escapes exactly as RFC 8785 (\" \\ \b \f \n \r \t, other
--   controls \u00xx, everything else raw); names are escaped by to_json(text), which uses
--   the same routine.
-- * Numbers: jsonb keeps exact decimals; RFC 8785 writes the nearest IEEE 754 double as
--   ECMAScript's Number.prototype.toString. Up to 15 significant digits the digits are the
--   decimal's own (no double needed). Otherwise: underflow (|x| <= 2^-1075) gives 0,
--   overflow (|x| >= 2^1024 - 2^970) raises SQLSTATE 22003, anything else goes through
--   float8 with extra_float_digits = 1 (shortest round trip), then two fix-ups: the
--   ECMAScript layout (1e+21, 1e-7, 0.000001) and, for |x| >= 2^54, the shorter boundary
--   representation PostgreSQL's Ryu never picks (it excludes the interval ends; ECMAScript
--   includes them when the significand is even: 30038324023544130, not ...128).

-- Sort key of a member name: code-point order of the key = UTF-16 code-unit order of the name.
create or replace function public.equijson_utf16_key(name text) returns text
language sql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $fn$
  select case when name ~ '[\uD7FF\U00010000-\U0010FFFF]'
    then regexp_replace(name, '([\uD7FF\U00010000-\U0010FFFF])', U&'\D7FF' || '\1', 'g')
    else name end
$fn$;

-- ECMAScript text of a number that needs a double (see the header).
create or replace function public.equijson_number_slow(x numeric) returns text
language plpgsql immutable strict parallel safe
set search_path = pg_catalog, pg_temp
set extra_float_digits = 1
as $fn$
declare
  a numeric := abs(x);
  neg boolean := x < 0;
  f float8;
  s text;
  d text;          -- significant digits, no leading or trailing zeros
  n int;           -- decimal exponent: value = 0.d * 10^n
  e int;
  ip text;
  fp text;
  big numeric;     -- exact value of the double (|x| >= 2^54 only)
  e2 int;
  ulp numeric;
  m numeric;
  lo numeric;
  hi numeric;
  dlo text;
  dhi text;
begin
  if a = 0 or a * pg_catalog.power(2::numeric, 1075) <= 1 then
    return '0';
  end if;
  if a >= pg_catalog.power(2::numeric, 1024) - pg_catalog.power(2::numeric, 970) then
    raise exception 'equijson_canonical: number % overflows an IEEE 754 double (RFC 8785 has no Infinity)',
      case when length(x::text) > 40 then left(x::text, 20) || '...(' || length(x::text) || ' characters)' else x::text end
      using errcode = '22003',
            hint = 'RFC 8785 numbers are doubles: the largest finite one is 1.7976931348623157e+308.';
  end if;
  f := a::float8;
  s := f::text;
  if strpos(s, 'e') > 0 then
    ip := split_part(s, 'e', 1);
    e := split_part(s, 'e', 2)::int;
    d := replace(ip, '.', '');
    n := e + 1;
  else
    ip := split_part(s, '.', 1);
    fp := split_part(s, '.', 2);
    if ip <> '0' then
      d := ip || fp;
      n := length(ip);
    else
      d := ltrim(fp, '0');
      n := length(d) - length(fp);
    end if;
  end if;
  d := rtrim(d, '0');
  -- PostgreSQL's Ryu excludes the ends of the rounding interval; ECMAScript admits an end
  -- that rounds to the double (even significand). An end can be shorter than the interior
  -- candidates only when it is an integer with trailing zeros: |x| >= 2^54.
  if f >= 18014398509481984::float8 then
    big := (d || 'e' || (n - length(d)))::numeric;
    e2 := floor(log(2::numeric, big))::int;
    while pg_catalog.power(2::numeric, e2) > big loop e2 := e2 - 1; end loop;
    while pg_catalog.power(2::numeric, e2 + 1) <= big loop e2 := e2 + 1; end loop;
    ulp := pg_catalog.power(2::numeric, e2 - 52);
    big := round(big / ulp) * ulp;
    m := big / ulp;
    if m >= pg_catalog.power(2::numeric, 53) then      -- rounded up to the next power of two
      ulp := ulp * 2;
      m := big / ulp;
    end if;
    if mod(m, 2) = 0 then
      hi := big + ulp / 2;
      lo := big - case when m = pg_catalog.power(2::numeric, 52) then ulp / 4 else ulp / 2 end;
      dlo := rtrim(trunc(lo)::text, '0');
      dhi := rtrim(trunc(hi)::text, '0');
      if length(dlo) < length(d) or length(dhi) < length(d) then
        if length(dlo) < length(dhi)
           or (length(dlo) = length(dhi) and (big - lo < hi - big
               or (big - lo = hi - big and right(dlo, 1)::int % 2 = 0))) then
          d := dlo;
          n := length(trunc(lo)::text);
        else
          d := dhi;
          n := length(trunc(hi)::text);
        end if;
      end if;
    end if;
  end if;
  -- ECMAScript Number::toString layout, k digits, exponent n.
  s := case
    when length(d) <= n and n <= 21 then d || repeat('0', n - length(d))
    when 0 < n and n <= 21 then left(d, n) || '.' || substr(d, n + 1)
    when -6 < n and n <= 0 then '0.' || repeat('0', -n) || d
    else left(d, 1) || case when length(d) > 1 then '.' || substr(d, 2) else '' end
         || 'e' || case when n - 1 >= 0 then '+' else '-' end || abs(n - 1)::text
  end;
  return case when neg then '-' || s else s end;
end
$fn$;

-- ECMAScript text of a jsonb number, given its jsonb text (plain decimal, never an exponent).
-- Up to 15 digits and not below 1e-6 the decimal is the answer, trailing fraction zeros off.
create or replace function public.equijson_number(t text) returns text
language sql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $fn$
  select case
    when octet_length(t) <= 15 and strpos(t, '0.000000') = 0 then
      case when strpos(t, '.') > 0 then rtrim(rtrim(t, '0'), '.') else t end
    else public.equijson_number_slow(t::numeric)
  end
$fn$;

-- The canonical text of a scalar jsonb value (string, number, boolean, null).
create or replace function public.equijson_scalar(v jsonb) returns text
language sql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $fn$
  select case when jsonb_typeof(v) = 'number' then public.equijson_number(v::text) else v::text end
$fn$;

create or replace function public.equijson_canonical_levels(doc jsonb) returns text
language plpgsql immutable strict parallel safe
set search_path = pg_catalog, pg_temp
-- Custom plans would be re-planned on every call (their estimates beat the generic plan's).
set plan_cache_mode = force_generic_plan
-- Row estimates of 100 per set-returning function make these plans look expensive enough
-- for JIT, which would then compile on every call.
set jit = off
as $fn$
declare
  cur jsonb[];             -- the non-empty containers of the current level, in output order
  kinds text;              -- one character per container of the current level: '{' or '['
  nxt jsonb[];
  nkinds text;
  lv int := 0;
  -- every level's member rows, flat; level lv occupies starts[lv] .. starts[lv + 1] - 1
  starts int[] := '{}';
  lkinds text[] := '{}';
  par int[] := '{}';       -- index of the parent in its level's containers
  pre text[] := '{}';      -- '"name":' for object members, '' for array elements
  txt text[] := '{}';      -- canonical text of a scalar or empty container, null for a container
  cix int[] := '{}';       -- index of a container member in the next level's containers
  a_par int[];
  a_pre text[];
  a_txt text[];
  a_cix int[];
  res text[];
  lo int;
  hi int;
begin
  if jsonb_typeof(doc) not in ('object', 'array') then
    return public.equijson_scalar(doc);
  end if;
  if doc = '{}'::jsonb then return '{}'; end if;
  if doc = '[]'::jsonb then return '[]'; end if;
  cur := array[doc];
  kinds := case jsonb_typeof(doc) when 'object' then '{' else '[' end;
  loop
    lv := lv + 1;
    starts := starts || (coalesce(array_length(par, 1), 0) + 1);
    lkinds := lkinds || kinds;
    select array_agg(m.p order by m.rn), array_agg(m.pre order by m.rn),
           array_agg(m.txt order by m.rn),
           array_agg(case when m.txt is null then m.c end order by m.rn),
           array_agg(m.v order by m.rn) filter (where m.txt is null),
           string_agg(case jsonb_typeof(m.v) when 'object' then '{' else '[' end, '' order by m.rn)
                filter (where m.txt is null)
      into a_par, a_pre, a_txt, a_cix, nxt, nkinds
      from (
        select x.p, x.pre, x.v, x.txt,
               row_number() over w as rn,
               count(*) filter (where x.txt is null) over w as c
          from (
            select c.p, y.pre, y.v, y.sk, y.o,
                   case when jsonb_typeof(y.v) not in ('object', 'array') then public.equijson_scalar(y.v)
                        when y.v = '{}'::jsonb then '{}'
                        when y.v = '[]'::jsonb then '[]' end as txt
              from unnest(cur) with ordinality c(v, p)
              cross join lateral (
                select to_json(e.key)::text || ':' as pre, e.value as v,
                       public.equijson_utf16_key(e.key) as sk, null::bigint as o
                  from jsonb_each(case when jsonb_typeof(c.v) = 'object' then c.v end) e
                union all
                select '', el.value, null, el.o
                  from jsonb_array_elements(case when jsonb_typeof(c.v) = 'array' then c.v end)
                       with ordinality el(value, o)
              ) y
          ) x
        window w as (order by x.p, x.sk collate "C", x.o rows between unbounded preceding and current row)
      ) m;
    par := par || a_par;
    pre := pre || a_pre;
    txt := txt || a_txt;
    cix := cix || a_cix;
    exit when nxt is null;
    cur := nxt;
    kinds := nkinds;
  end loop;
  starts := starts || (coalesce(array_length(par, 1), 0) + 1);
  -- Assemble from the deepest level up: res holds the texts of level lv + 1's containers.
  res := '{}';
  for l in reverse lv .. 1 loop
    lo := starts[l];
    hi := starts[l + 1] - 1;
    select array_agg(g.t order by g.p) into res
      from (
        select u.p,
               substr(lkinds[l], u.p::int, 1)
               || string_agg(u.pre || coalesce(u.txt, res[u.c]), ',' order by u.r)
               || case substr(lkinds[l], u.p::int, 1) when '{' then '}' else ']' end as t
          from unnest(par[lo:hi], pre[lo:hi], txt[lo:hi], cix[lo:hi]) with ordinality u(p, pre, txt, c, r)
         group by u.p
      ) g;
  end loop;
  return res[1];
end
$fn$;


-- The split path, for documents the entry point's padding path does not take (see there).
-- On the text: in doc::text replace \\ by U+0001 and then \" by
-- U+0002 (jsonb text never holds raw controls), split on '"' (pieces then alternate
-- outside / inside strings), right-pad every member name with
-- spaces to the document's longest name so that jsonb's own order (byte length, then bytes)
-- is RFC 8785's, re-sort with one ::jsonb round trip, serialize compactly with
-- json_strip_nulls (member nulls protected by the sentinel {"\u0001":0}, numbers that
-- change protected as {"\u0002":"ecmascript text"}), then strip the padding and the
-- sentinels. Sound because no name can then contain '"', '\', a control character, a
-- trailing space or a character from U+D7FF up; a document where that is not so (or with
-- more than 1,000 brackets) goes to equijson_canonical_levels.
create or replace function public.equijson_canonical_split(doc jsonb) returns text
language sql immutable strict parallel safe
set search_path = pg_catalog, pg_temp
as $fn$
  select case
    when jsonb_typeof(doc) not in ('object', 'array') then public.equijson_scalar(doc)
    when (pg_column_size(doc) > 1000
             and octet_length(doc::text) - octet_length(replace(replace(doc::text, '[', ''), '{', '')) > 1000)
      then public.equijson_canonical_levels(doc)
    else (
          select case when bool_or(k.bad) then public.equijson_canonical_levels(doc)
            else regexp_replace(replace(regexp_replace(json_strip_nulls(replace(replace(string_agg(case
                when k.key then k.p || repeat(' ', k.l - octet_length(k.p))
                when k.n % 2 = 0 then k.p
                when strpos(k.p, '.') > 0 or (octet_length(k.p) > 15 and k.p ~ '[0-9]{16}') then
                  replace((select string_agg(case when strpos('-0123456789', left(r.m[1], 1)) > 0
                                    then '{"\u0002":"' || public.equijson_number(r.m[1]) || '"}'
                                    else r.m[1] end, '' order by r.o)
                             from regexp_matches(k.p, '-?[0-9][0-9.]*|[^-0-9]+', 'g') with ordinality r(m, o)),
                          ': null', ': {"\u0001":0}')
                else replace(k.p, ': null', ': {"\u0001":0}')
              end, '"' order by k.n), chr(2), '\"'), chr(1), '\\')::jsonb::text::json)::text, ' +":', '":', 'g'), '{"\u0001":0}', 'null'), '\{"\\u0002":"([^"]*)"\}', '\1', 'g')
            end
            from (
              select v.p, v.n, v.key,
                     v.key and (right(v.p, 1) = ' ' or strpos(v.p, '\') > 0 or strpos(v.p, chr(1)) > 0 or strpos(v.p, chr(2)) > 0
                                or (octet_length(v.p) <> length(v.p) and v.p ~ '[\uD7FF\U00010000-\U0010FFFF]')) as bad,
                     max(case when v.key then octet_length(v.p) end) over () as l
                from (
                  select u.p, u.n, u.n % 2 = 0 and left(lead(u.p) over (order by u.n), 1) = ':' as key
                    from unnest(string_to_array(replace(replace(doc::text, '\\', chr(1)), '\"', chr(2)), '"')) with ordinality u(p, n)
                ) v
            ) k
        )
  end
$fn$;

-- The entry point. Padding path, a handful of C-level string operations on the whole text
-- (no set-returning function, no sub-query):
-- 1. t = jsonb_pretty(doc) with the indentation removed: every object member and array
--    element starts a line, `\n"` opens a string at a line start, raw newlines and raw
--    controls never occur inside strings.
-- 2. One regex test routes to equijson_canonical_split the documents this path does not
--    take: a name that is not printable ASCII without space and backslash, a string that
--    starts with ':', `\":` anywhere, U+F8FE or U+F8FF anywhere (the two sentinels below),
--    or nesting deeper than 18 levels (tested first on values over 1,000 bytes, whose
--    pretty text would otherwise grow with the square of the depth).
-- 3. Numbers: jsonb_path_query_array lists them; the ones whose ECMAScript text differs
--    (16 or more digits, below 1e-6, trailing fraction zeros) are replaced in place (each
--    number ends a line, so ' 1.50\n' can only be that number), as a string
--    "\uF8FF1e+21\uF8FF" when the ECMAScript text has an exponent (jsonb would rewrite it).
--    More than 32 such numbers: the split path (one pass per number would be quadratic).
-- 4. Every space (now only inside strings, and after member names) becomes U+F8FE, then a
--    U+0003 mark goes before each line-start string and each name's closing `":`; splitting
--    on the marks makes each member name an element of its own, and format('%-16s') pads it
--    with spaces to 15 characters. All names of the document then have the same byte length,
--    so jsonb's order (byte length, then bytes) is RFC 8785's (ASCII: UTF-16 = byte order),
--    and a space sorts below every character a name can hold. Other elements end outside
--    strings, so their padding (if any) is whitespace. Longer names: widths 64, then 256.
-- 5. One ::jsonb round trip sorts every object; in its text the only spaces are separators
--    and padding: drop them all, turn U+F8FE back into spaces, unwrap the number strings.
create or replace function public.equijson_canonical(doc jsonb) returns text
language plpgsql immutable strict parallel safe
set search_path = pg_catalog, pg_temp
as $fn$
declare
  t text;
  u text;
  k int;
  o int;
  w int;
  nl text;
  tok text;
  e text;
  num boolean := false;
  changed int := 0;
begin
  if jsonb_typeof(doc) not in ('object', 'array') then
    return public.equijson_scalar(doc);
  end if;
  -- The sentinels below are non-ASCII (UTF-8 databases only); jsonb_pretty's indentation
  -- grows with depth (quadratic text on deep values).
  if getdatabaseencoding() <> 'UTF8'
     or (pg_column_size(doc) > 1000 and jsonb_path_exists(doc, 'strict $.**{19}')) then
    return public.equijson_canonical_split(doc);
  end if;
  t := replace(replace(jsonb_pretty(doc), E'\n        ', E'\n'), E'\n    ', E'\n');
  if t ~ E'\n |\n":| ":|\\\\":|[\\uF8FE\\uF8FF]|\n"([^"\\\\]|\\\\.)*([^!-~"\\\\]|\\\\.)([^"\\\\]|\\\\.)*": ' then
    if strpos(t, E'\n ') > 0 then
      t := replace(replace(replace(replace(t, E'\n' || repeat(' ', 32), E'\n'), E'\n' || repeat(' ', 16), E'\n'),
                   E'\n        ', E'\n'), E'\n    ', E'\n');
    end if;
    if t ~ E'\n |\n":| ":|\\\\":|[\\uF8FE\\uF8FF]|\n"([^"\\\\]|\\\\.)*([^!-~"\\\\]|\\\\.)([^"\\\\]|\\\\.)*": ' then
      return public.equijson_canonical_split(doc);
    end if;
  end if;
  nl := jsonb_path_query_array(doc, 'strict $.**?(@.type() == "number")')::text;
  foreach tok in array string_to_array(substr(nl, 2, octet_length(nl) - 2), ', ') loop
    continue when octet_length(tok) <= 15 and strpos(tok, '0.000000') = 0
                  and (right(tok, 1) <> '0' or strpos(tok, '.') = 0);
    if strpos(tok, '0.000000') > 0 or octet_length(tok) > 300 then
      e := public.equijson_number_slow(tok::numeric);
    elsif octet_length(tok) <= 15 then
      e := case when strpos(tok, '.') > 0 then rtrim(rtrim(tok, '0'), '.') else tok end;
    else
      -- Shortest round-trip text (PostgreSQL 12+ with extra_float_digits > 0, the
      -- default); in fixed notation (1e-4 <= |x| < 1e15) it is the ECMAScript text.
      e := tok::float8::text;
      if strpos(e, 'e') > 0 or current_setting('extra_float_digits')::int <= 0 then
        e := public.equijson_number_slow(tok::numeric);
      end if;
    end if;
    if e <> tok then
      -- Each replacement is a pass over the text: many of them go to the split path,
      -- which is linear in the number of numbers.
      changed := changed + 1;
      if changed > 32 then
        return public.equijson_canonical_split(doc);
      end if;
      if strpos(e, 'e') > 0 then
        e := E'"\uF8FF' || e || E'\uF8FF"';
        num := true;
      end if;
      t := replace(replace(replace(replace(t, ' ' || tok || E'\n', ' ' || e || E'\n'),
                                   ' ' || tok || E',\n', ' ' || e || E',\n'),
                           E'\n' || tok || E'\n', E'\n' || e || E'\n'),
                   E'\n' || tok || E',\n', E'\n' || e || E',\n');
    end if;
  end loop;
  t := replace(t, ' ', E'\uF8FE');
  u := replace(t, E'\n"', E'\n\x03"');
  o := octet_length(u) - octet_length(t);          -- strings at a line start
  u := replace(u, E'":\uF8FE', E'\x03":');
  k := (octet_length(t) + o - octet_length(u)) / 2; -- member names
  w := 16;
  loop
    t := format(case when k = o then '%s' || repeat('%-' || w || 's%s', k) else repeat('%-' || w || 's', k + o + 1) end,
                variadic string_to_array(u, E'\x03'));
    -- every name got at least one space (none was longer than w - 2)
    exit when octet_length(t) - octet_length(replace(t, ' ":', '":')) = k;
    if w = 256 then
      return public.equijson_canonical_split(doc);
    end if;
    w := w * 4;
  end loop;
  t := replace(replace(t::jsonb::text, ' ', ''), E'\uF8FE', ' ');
  if num then
    t := replace(replace(t, E'"\uF8FF', ''), E'\uF8FF"', '');
  end if;
  return t;
end
$fn$;

-- For row-by-row checks (`equijson pg scan --sql-canonical`): the canonical text of a JSON
-- text, or '!' followed by the SQLSTATE when jsonb rejects it or the function raises (no
-- JSON text starts with '!'). One subtransaction per call: for checking, not for queries.
create or replace function public.equijson_canonical_checked(doc text) returns text
language plpgsql immutable parallel safe
set search_path = pg_catalog, pg_temp
as $fn$
begin
  return public.equijson_canonical(doc::jsonb);
exception when others then
  return '!' || sqlstate;
end
$fn$;
