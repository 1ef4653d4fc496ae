//! `to_canonical_vec` on Rust values: member order, map keys, numbers, enums, and the JSON
//! pointer carried by errors; plus agreement with [`equijson::canonicalize`] on
//! `serde_json::Value`s of the same documents.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::float_cmp,
    clippy::unreadable_literal,
    clippy::excessive_precision,
    clippy::items_after_statements,
    reason = "test code: a failed expectation should abort the test loudly; literals are spelled as in the spec; helper types sit next to the assertions that use them"
)]

use std::collections::{BTreeMap, HashMap};

use equijson::{ErrorKind, InexactNumbers, NegativeZero, Noncharacters, Options};
use serde::{Serialize, Serializer, ser::SerializeMap};

fn canon<T: Serialize + ?Sized>(v: &T) -> String {
    let bytes = equijson::to_canonical_vec(v).unwrap_or_else(|e| panic!("serializing failed: {e}"));
    String::from_utf8(bytes).expect("canonical output is UTF-8")
}

fn canon_with<T: Serialize + ?Sized>(v: &T, o: &Options) -> equijson::Result<String> {
    equijson::to_canonical_vec_with(v, o).map(|b| String::from_utf8(b).unwrap())
}

fn err<T: Serialize + ?Sized>(v: &T) -> equijson::Error {
    equijson::to_canonical_vec(v).expect_err("serializing should fail")
}

fn err_with<T: Serialize + ?Sized>(v: &T, o: &Options) -> equijson::Error {
    equijson::to_canonical_vec_with(v, o).expect_err("serializing should fail")
}

/// A map written from a list of pairs, in the given order, duplicates and all.
struct Pairs<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Pairs<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

// ---- structs and member order -------------------------------------------------------------

#[derive(Serialize)]
struct Item {
    name: String,
    price: f64,
    qty: u32,
}

#[derive(Serialize)]
struct Customer {
    name: String,
    #[serde(rename = "e-mail")]
    email: Option<String>,
    vip: bool,
}

#[derive(Serialize)]
struct Order {
    id: u64,
    items: Vec<Item>,
    note: Option<String>,
    tags: BTreeMap<String, i32>,
    customer: Customer,
    #[serde(skip_serializing_if = "Option::is_none")]
    coupon: Option<String>,
}

fn item(name: &str, price: f64) -> Item {
    Item {
        name: name.into(),
        price,
        qty: 1,
    }
}

fn order(prices: &[f64]) -> Order {
    Order {
        id: 42,
        items: prices
            .iter()
            .enumerate()
            .map(|(i, &p)| item(&format!("item{i}"), p))
            .collect(),
        note: None,
        tags: [("z".to_owned(), 1), ("a".to_owned(), -1)].into(),
        customer: Customer {
            name: "Zoë".into(),
            email: Some("z@example.com".into()),
            vip: true,
        },
        coupon: None,
    }
}

#[test]
fn derived_struct_members_are_sorted_at_every_level() {
    let o = order(&[9.99, 100.0, 0.5]);
    assert_eq!(
        canon(&o),
        r#"{"customer":{"e-mail":"z@example.com","name":"Zoë","vip":true},"id":42,"items":[{"name":"item0","price":9.99,"qty":1},{"name":"item1","price":100,"qty":1},{"name":"item2","price":0.5,"qty":1}],"note":null,"tags":{"a":-1,"z":1}}"#
    );
    #[derive(Serialize)]
    #[allow(non_snake_case, reason = "member names chosen to test ordering")]
    struct Fields {
        zeta: u8,
        alpha: u8,
        Mid: u8,
        _under: u8,
    }
    assert_eq!(
        canon(&Fields {
            zeta: 1,
            alpha: 2,
            Mid: 3,
            _under: 4
        }),
        r#"{"Mid":3,"_under":4,"alpha":2,"zeta":1}"#
    );
}

#[test]
fn serde_json_writes_the_same_document() {
    // to_canonical_vec(x) == canonicalize(serde_json::to_vec(x)) for typed values.
    let o = order(&[9.99, 1e21, 1.5e-7, -0.0, 123456789.125]);
    let via_text = equijson::canonicalize(&serde_json::to_vec(&o).unwrap()).unwrap();
    assert_eq!(equijson::to_canonical_vec(&o).unwrap(), via_text);
}

// ---- map keys ------------------------------------------------------------------------------

/// The expected UTF-16 order of [`KEYS`]: "", a, aa, b, é, U+10000, U+1F600, U+E000, U+FB33, U+FFFD.
const SORTED: &str = "{\"\":0,\"a\":1,\"aa\":2,\"b\":3,\"é\":4,\"\u{10000}\":5,\"\u{1F600}\":6,\"\u{E000}\":7,\"\u{FB33}\":8,\"\u{FFFD}\":9}";
const KEYS: [(&str, u8); 10] = [
    ("\u{FFFD}", 9),
    ("b", 3),
    ("\u{1F600}", 6),
    ("", 0),
    ("\u{E000}", 7),
    ("aa", 2),
    ("\u{10000}", 5),
    ("é", 4),
    ("a", 1),
    ("\u{FB33}", 8),
];

#[test]
fn hashmap_keys_sorted_by_utf16() {
    let m: HashMap<String, u8> = KEYS.iter().map(|&(k, v)| (k.to_owned(), v)).collect();
    assert_eq!(canon(&m), SORTED);
    let m: HashMap<&str, u8> = KEYS.into_iter().collect();
    assert_eq!(canon(&m), SORTED);
}

#[test]
fn btreemap_utf8_order_is_resorted_to_utf16() {
    // BTreeMap<String> iterates in UTF-8 (code point) order: U+E000.. before U+10000...
    let m: BTreeMap<String, u8> = KEYS.iter().map(|&(k, v)| (k.to_owned(), v)).collect();
    let iter_order: Vec<&str> = m.keys().map(String::as_str).collect();
    assert!(
        iter_order.iter().position(|&k| k == "\u{E000}")
            < iter_order.iter().position(|&k| k == "\u{1F600}")
    );
    assert_eq!(canon(&m), SORTED);
    assert_eq!(canon(&Pairs(KEYS.to_vec())), SORTED);
    assert_eq!(
        canon(&BTreeMap::from([("\u{FB33}", 1), ("\u{1F602}", 2)])),
        "{\"\u{1F602}\":2,\"\u{FB33}\":1}"
    );
}

#[test]
fn integer_char_and_bool_keys() {
    let m: BTreeMap<i32, &str> = [
        (10, "ten"),
        (2, "two"),
        (-1, "minus"),
        (100, "hundred"),
        (1, "one"),
    ]
    .into();
    assert_eq!(
        canon(&m),
        r#"{"-1":"minus","1":"one","10":"ten","100":"hundred","2":"two"}"#
    );
    // Keys are names: big integers keep every digit (no rounding to a double).
    let m: HashMap<u64, bool> = [(u64::MAX, true), (9007199254740993, false)].into();
    assert_eq!(
        canon(&m),
        r#"{"18446744073709551615":true,"9007199254740993":false}"#
    );
    let m: BTreeMap<i128, u8> = [(i128::MIN, 1), (u8::MAX.into(), 2)].into();
    assert_eq!(
        canon(&m),
        r#"{"-170141183460469231731687303715884105728":1,"255":2}"#
    );
    let m: BTreeMap<u128, u8> = [(u128::MAX, 1)].into();
    assert_eq!(
        canon(&m),
        r#"{"340282366920938463463374607431768211455":1}"#
    );
    let m: BTreeMap<char, u8> = [
        ('b', 1),
        ('a', 2),
        ('😂', 3),
        ('\u{E000}', 4),
        ('"', 5),
        ('\n', 6),
    ]
    .into();
    assert_eq!(
        canon(&m),
        "{\"\\n\":6,\"\\\"\":5,\"a\":2,\"b\":1,\"😂\":3,\"\u{E000}\":4}"
    );
    let m: BTreeMap<bool, u8> = [(true, 1), (false, 0)].into();
    assert_eq!(canon(&m), r#"{"false":0,"true":1}"#);
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Color {
        Red,
        Green,
        #[serde(rename = "blue")]
        Blue,
    }
    let m: BTreeMap<Color, u8> = [(Color::Red, 1), (Color::Green, 2), (Color::Blue, 3)].into();
    assert_eq!(canon(&m), r#"{"Green":2,"Red":1,"blue":3}"#);
    // A newtype around a string is a string key.
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    struct Name(String);
    let m: BTreeMap<Name, u8> = [(Name("b".into()), 1), (Name("a".into()), 2)].into();
    assert_eq!(canon(&m), r#"{"a":2,"b":1}"#);
}

#[test]
fn f64_keys_use_the_number_text() {
    let m = Pairs(vec![
        (1.0f64, "one"),
        (1e21, "big"),
        (0.5, "half"),
        (-0.0, "zero"),
    ]);
    assert_eq!(
        canon(&m),
        r#"{"0":"zero","0.5":"half","1":"one","1e+21":"big"}"#
    );
    // NaN is no name.
    let e = err(&Pairs(vec![(f64::NAN, 1)]));
    assert_eq!(e.kind(), &ErrorKind::KeyMustBeString);
}

#[test]
fn f32_keys_use_the_same_text_as_f32_values() {
    for x in [1.0f32, 1e21, -0.0, 0.1, 16777216.0, 3.4028235e38] {
        let as_value = canon(&x);
        let as_key = canon(&Pairs(vec![(x, 0)]));
        assert_eq!(as_key, format!("{{\"{as_value}\":0}}"), "key {x:?}");
        // And the same name as the f64 of that value's text.
        let as_f64_key = canon(&Pairs(vec![(as_value.parse::<f64>().unwrap(), 0)]));
        assert_eq!(as_key, as_f64_key, "key {x:?}");
    }
}

#[test]
fn non_string_keys_are_rejected() {
    let e = err(&BTreeMap::from([(vec![1u8], 1)]));
    assert_eq!(e.kind(), &ErrorKind::KeyMustBeString);
    assert_eq!(e.pointer(), Some(""));
    assert_eq!(e.to_string(), r#"at "": object key must be a string"#);
    assert_eq!(
        err(&HashMap::from([(None::<u8>, 1)])).kind(),
        &ErrorKind::KeyMustBeString
    );
    assert_eq!(
        err(&HashMap::from([((1u8, 2u8), 1)])).kind(),
        &ErrorKind::KeyMustBeString
    );
    assert_eq!(
        err(&HashMap::from([((), 1)])).kind(),
        &ErrorKind::KeyMustBeString
    );
    // Nested: the pointer names the map holding the bad key.
    #[derive(Serialize)]
    struct Holder {
        inner: BTreeMap<Vec<u8>, u8>,
    }
    let e = err(&Holder {
        inner: BTreeMap::from([(vec![1u8], 1)]),
    });
    assert_eq!(e.kind(), &ErrorKind::KeyMustBeString);
    assert_eq!(e.pointer(), Some("/inner"));
    assert!(e.offset().is_none() && e.line().is_none());
}

#[test]
fn bad_key_after_a_good_one_points_at_the_map() {
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Key {
        Name,
        Pair(u8, u8),
    }
    let e = err(&BTreeMap::from([(Key::Name, 1), (Key::Pair(1, 2), 2)]));
    assert_eq!(e.kind(), &ErrorKind::KeyMustBeString);
    // Regression: this was "/Name", a member that is fine.
    assert_eq!(e.pointer(), Some(""));
    // Same for a name rejected by the noncharacter policy (was "/a"): the bad member.
    let reject = Options::default().noncharacters(Noncharacters::Reject);
    let e = err_with(&BTreeMap::from([("a", 1), ("\u{FFFF}", 2)]), &reject);
    assert_eq!(e.kind(), &ErrorKind::Noncharacter('\u{FFFF}'));
    assert_eq!(e.pointer(), Some("/\u{FFFF}"));
}

#[test]
fn duplicate_names_are_rejected_with_their_pointer() {
    #[derive(Serialize)]
    struct Outer {
        list: Vec<u8>,
        x: Pairs<&'static str, u8>,
    }
    let e = err(&Outer {
        list: vec![1],
        x: Pairs(vec![("b", 0), ("a", 1), ("a", 2)]),
    });
    assert_eq!(e.kind(), &ErrorKind::DuplicateKey("a".into()));
    assert_eq!(e.pointer(), Some("/x/a"));
    assert_eq!(e.to_string(), r#"at "/x/a": duplicate object key "a""#);
    // Names that become equal only as text: the integer 1 and the string "1".
    #[derive(Serialize)]
    struct Flat {
        #[serde(rename = "1")]
        one: u8,
        #[serde(flatten)]
        rest: BTreeMap<u8, u8>,
    }
    let e = err(&vec![Flat {
        one: 1,
        rest: [(1, 2)].into(),
    }]);
    assert_eq!(e.kind(), &ErrorKind::DuplicateKey("1".into()));
    assert_eq!(e.pointer(), Some("/0/1"));
}

// ---- numbers ---------------------------------------------------------------------------------

#[test]
fn non_finite_floats_are_rejected_with_a_pointer() {
    let e = err(&order(&[1.0, 2.0, f64::NAN]));
    assert_eq!(e.kind(), &ErrorKind::NonFiniteNumber);
    assert_eq!(e.pointer(), Some("/items/2/price"));
    assert_eq!(
        e.to_string(),
        r#"at "/items/2/price": NaN and Infinity cannot be represented in JSON"#
    );
    assert_eq!(
        err(&order(&[f64::INFINITY])).pointer(),
        Some("/items/0/price")
    );
    assert_eq!(
        err(&order(&[1.0, f64::NEG_INFINITY])).pointer(),
        Some("/items/1/price")
    );

    let e = err(&f64::NAN);
    assert_eq!(
        (e.kind(), e.pointer()),
        (&ErrorKind::NonFiniteNumber, Some(""))
    );
    assert_eq!(err(&vec![1.0, f64::NAN]).pointer(), Some("/1"));
    assert_eq!(
        err(&vec![vec![], vec![1.0f32, f32::INFINITY]]).pointer(),
        Some("/1/1")
    );
    assert_eq!(err(&(1, f32::NAN)).pointer(), Some("/1"));
    let m: BTreeMap<&str, f64> = [("a/b~c", f64::NAN)].into();
    assert_eq!(err(&m).pointer(), Some("/a~1b~0c"));
    let m: BTreeMap<&str, Vec<f64>> = [
        ("a", vec![1.0]),
        ("b", vec![]),
        ("c", vec![0.0, 1.0, f64::NAN]),
    ]
    .into();
    assert_eq!(err(&m).pointer(), Some("/c/2"));
    #[derive(Serialize)]
    enum E {
        V(f64),
        S { x: f64 },
    }
    assert_eq!(err(&E::V(f64::NAN)).pointer(), Some("/V"));
    assert_eq!(
        err(&vec![E::S { x: 1.0 }, E::S { x: f64::NAN }]).pointer(),
        Some("/1/S/x")
    );
}

#[test]
fn integers_beyond_2_pow_53_round_like_parsed_text() {
    const P53: u64 = 1 << 53;
    assert_eq!(canon(&(P53 - 1)), "9007199254740991");
    assert_eq!(canon(&P53), "9007199254740992");
    assert_eq!(canon(&(P53 + 1)), "9007199254740992");
    assert_eq!(canon(&(P53 + 3)), "9007199254740996");
    assert_eq!(canon(&u64::MAX), "18446744073709552000");
    assert_eq!(canon(&i64::MIN), "-9223372036854776000");
    assert_eq!(canon(&i64::MAX), "9223372036854776000");
    assert_eq!(canon(&(-(1i64 << 53) - 1)), "-9007199254740992");
    assert_eq!(
        canon(&[
            u8::MAX.into(),
            i8::MIN.into(),
            i16::MIN.into(),
            u32::MAX.into(),
            i64::from(i32::MIN)
        ]),
        "[255,-128,-32768,4294967295,-2147483648]"
    );
    // Parsed text and serialized integers agree.
    for n in [P53 + 1, P53 + 2, u64::MAX - 1, 123_456_789_012_345_678] {
        assert_eq!(
            canon(&n).into_bytes(),
            equijson::canonicalize(n.to_string().as_bytes()).unwrap()
        );
    }

    let reject = Options::default().inexact_numbers(InexactNumbers::Reject);
    #[derive(Serialize)]
    struct N {
        n: u64,
    }
    let e = err_with(&N { n: P53 + 1 }, &reject);
    assert_eq!(
        e.kind(),
        &ErrorKind::InexactNumber {
            written: "9007199254740993".into(),
            becomes: "9007199254740992".into()
        }
    );
    assert_eq!(e.pointer(), Some("/n"));
    assert_eq!(
        e.to_string(),
        r#"at "/n": inexact number 9007199254740993: its canonical form 9007199254740992 denotes a different value"#
    );
    assert_eq!(
        canon_with(&N { n: P53 }, &reject).unwrap(),
        r#"{"n":9007199254740992}"#
    );
    assert_eq!(canon_with(&(P53 - 1), &reject).unwrap(), "9007199254740991");
    assert!(matches!(
        err_with(&u64::MAX, &reject).kind(),
        ErrorKind::InexactNumber { .. }
    ));
    // Exact as a double, but its canonical text is not the decimal written: rejected (as documented).
    assert!(matches!(
        err_with(&i64::MIN, &reject).kind(),
        ErrorKind::InexactNumber { .. }
    ));
    // Floats are doubles already: never inexact.
    assert_eq!(canon_with(&0.1f64, &reject).unwrap(), "0.1");
    assert_eq!(canon_with(&0.1f32, &reject).unwrap(), "0.1");
}

#[test]
fn i128_and_u128() {
    assert_eq!(canon(&42i128), "42");
    assert_eq!(canon(&-42i128), "-42");
    assert_eq!(canon(&0u128), "0");
    assert_eq!(canon(&i128::MAX), "1.7014118346046923e+38");
    assert_eq!(canon(&i128::MIN), "-1.7014118346046923e+38");
    assert_eq!(canon(&u128::MAX), "3.402823669209385e+38");
    assert_eq!(canon(&(1u128 << 70)), "1.1805916207174113e+21");
    assert_eq!(canon(&10u128.pow(21)), "1e+21");
    assert_eq!(canon(&(10u128.pow(21) - 1)), "1e+21");
    assert_eq!(canon(&(10u128.pow(20))), "100000000000000000000");
    let reject = Options::default().inexact_numbers(InexactNumbers::Reject);
    assert!(matches!(
        err_with(&u128::MAX, &reject).kind(),
        ErrorKind::InexactNumber { .. }
    ));
    assert_eq!(
        canon_with(&(1u128 << 50), &reject).unwrap(),
        "1125899906842624"
    );
    // 2^60 is a double, but its canonical text (17 digits, then zeros) is not the integer written.
    assert_eq!(canon(&(1u128 << 60)), "1152921504606847000");
    assert!(matches!(
        err_with(&(1u128 << 60), &reject).kind(),
        ErrorKind::InexactNumber { .. }
    ));
}

#[test]
fn f32_is_written_by_its_shortest_f32_digits() {
    assert_eq!(canon(&0.1f32), "0.1");
    assert_eq!(canon(&1.0f32), "1");
    assert_eq!(canon(&-2.5f32), "-2.5");
    assert_eq!(canon(&16777216.0f32), "16777216");
    assert_eq!(canon(&3.4028235e38f32), "3.4028235e+38");
    assert_eq!(canon(&f32::MIN_POSITIVE), "1.1754944e-38");
    assert_eq!(canon(&1e-45f32), "1e-45");
    assert_eq!(canon(&1e21f32), "1e+21");
    assert_eq!(canon(&1e-7f32), "1e-7");
    assert_eq!(canon(&0.3f32), "0.3");
    // The f64 of 0.1f32 is a different number: the serializer does not widen.
    assert_eq!(canon(&f64::from(0.1f32)), "0.10000000149011612");
    // Same text as serde_json writes, canonicalized.
    for x in [0.1f32, 1.0, 7.006492e-45, 123456.79, 1e10, 0.000123] {
        let via_text =
            equijson::canonicalize(serde_json::to_string(&x).unwrap().as_bytes()).unwrap();
        assert_eq!(canon(&x).into_bytes(), via_text, "{x:?}");
    }
}

#[test]
fn negative_zero() {
    assert_eq!(canon(&-0.0f64), "0");
    assert_eq!(canon(&-0.0f32), "0");
    assert_eq!(canon(&vec![-0.0, 0.0]), "[0,0]");
    let reject = Options::default().negative_zero(NegativeZero::Reject);
    #[derive(Serialize)]
    struct P {
        x: f64,
        y: f32,
    }
    let e = err_with(&P { x: -0.0, y: 0.0 }, &reject);
    assert_eq!(
        (e.kind(), e.pointer()),
        (&ErrorKind::NegativeZero, Some("/x"))
    );
    assert_eq!(e.to_string(), r#"at "/x": negative zero is not allowed"#);
    let e = err_with(&P { x: 0.0, y: -0.0 }, &reject);
    assert_eq!(
        (e.kind(), e.pointer()),
        (&ErrorKind::NegativeZero, Some("/y"))
    );
    assert_eq!(
        canon_with(&P { x: 0.0, y: 0.0 }, &reject).unwrap(),
        r#"{"x":0,"y":0}"#
    );
    assert_eq!(canon_with(&-1e-300, &reject).unwrap(), "-1e-300");
}

#[test]
fn float_layouts() {
    for (x, want) in [
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123456789012345680000.0, "123456789012345680000"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        (0.1 + 0.2, "0.30000000000000004"),
        (-1.5, "-1.5"),
        (2.0f64.powi(53), "9007199254740992"),
    ] {
        assert_eq!(canon(&x), want, "{x:e}");
    }
}

// ---- shapes: Option, unit, newtypes, tuples, enums ----------------------------------------------

#[test]
fn options_units_newtypes_tuples() {
    assert_eq!(canon(&None::<u8>), "null");
    assert_eq!(canon(&Some(5)), "5");
    assert_eq!(canon(&Some(Some("x"))), r#""x""#);
    assert_eq!(canon(&()), "null");
    #[derive(Serialize)]
    struct Unit;
    #[derive(Serialize)]
    struct Meters(f64);
    #[derive(Serialize)]
    struct Point(i32, i32, &'static str);
    assert_eq!(canon(&Unit), "null");
    assert_eq!(canon(&Meters(1.50)), "1.5");
    assert_eq!(canon(&Point(1, -2, "p")), r#"[1,-2,"p"]"#);
    assert_eq!(
        canon(&(1, "a", true, None::<u8>, 'c')),
        r#"[1,"a",true,null,"c"]"#
    );
    assert_eq!(canon(&[[1, 2], [3, 4]]), "[[1,2],[3,4]]");
    assert_eq!(canon::<[u8]>(&[]), "[]");
    assert_eq!(canon(&BTreeMap::<String, u8>::new()), "{}");
}

#[test]
fn enum_variants() {
    #[derive(Serialize)]
    enum E {
        Unit,
        New(i32),
        Tup(i32, String),
        Struct {
            b: i32,
            a: i32,
        },
        #[serde(rename = "\u{1F600}")]
        Smile,
    }
    assert_eq!(canon(&E::Unit), r#""Unit""#);
    assert_eq!(canon(&E::New(1)), r#"{"New":1}"#);
    assert_eq!(canon(&E::Tup(1, "x".into())), r#"{"Tup":[1,"x"]}"#);
    assert_eq!(
        canon(&E::Struct { b: 1, a: 2 }),
        r#"{"Struct":{"a":2,"b":1}}"#
    );
    assert_eq!(canon(&E::Smile), "\"\u{1F600}\"");
    assert_eq!(
        canon(&vec![E::Unit, E::New(-1), E::Struct { b: 0, a: 0 }]),
        r#"["Unit",{"New":-1},{"Struct":{"a":0,"b":0}}]"#
    );

    #[derive(Serialize)]
    #[serde(tag = "type")]
    enum Internal {
        Circle { radius: f64 },
        Empty,
    }
    assert_eq!(
        canon(&Internal::Circle { radius: 2.0 }),
        r#"{"radius":2,"type":"Circle"}"#
    );
    assert_eq!(canon(&Internal::Empty), r#"{"type":"Empty"}"#);

    #[derive(Serialize)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        Num(u8),
        Pair(u8, u8),
    }
    assert_eq!(canon(&Adjacent::Num(7)), r#"{"c":7,"t":"Num"}"#);
    assert_eq!(canon(&Adjacent::Pair(1, 2)), r#"{"c":[1,2],"t":"Pair"}"#);

    #[derive(Serialize)]
    #[serde(untagged)]
    enum Untagged {
        A(u8),
        B { z: u8, y: u8 },
    }
    assert_eq!(
        canon(&vec![Untagged::A(1), Untagged::B { z: 1, y: 2 }]),
        r#"[1,{"y":2,"z":1}]"#
    );
}

// ---- strings -----------------------------------------------------------------------------------

#[test]
fn strings_are_escaped_like_jcs() {
    assert_eq!(
        canon("a\"b\\c\n\r\t\u{8}\u{c}\u{0}\u{1}\u{1f}\u{7f}\u{2028}/é😀"),
        "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0000\\u0001\\u001f\u{7f}\u{2028}/é😀\""
    );
    let m: BTreeMap<&str, &str> = [("\u{1}", "\t"), ("\"", "\\")].into();
    assert_eq!(canon(&m), r#"{"\u0001":"\t","\"":"\\"}"#);
    assert_eq!(
        equijson::to_canonical_string(&vec!["x", "\u{FEFF}"]).unwrap(),
        "[\"x\",\"\u{FEFF}\"]"
    );
}

#[test]
fn bytes_are_arrays_of_numbers() {
    struct Bytes(&'static [u8]);
    impl Serialize for Bytes {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    assert_eq!(canon(&Bytes(b"ab\xFF")), "[97,98,255]");
    assert_eq!(canon(&Bytes(b"")), "[]");
}

#[test]
fn noncharacters_under_reject() {
    let reject = Options::default().noncharacters(Noncharacters::Reject);
    assert_eq!(canon(&"\u{FFFF}"), "\"\u{FFFF}\"");
    let e = err_with(&vec!["ok", "x\u{FDD0}"], &reject);
    assert_eq!(
        (e.kind(), e.pointer()),
        (&ErrorKind::Noncharacter('\u{FDD0}'), Some("/1"))
    );
    let e = err_with(&BTreeMap::from([("\u{1FFFF}", 1)]), &reject);
    assert_eq!(e.kind(), &ErrorKind::Noncharacter('\u{1FFFF}'));
    assert_eq!(
        canon_with(&"\u{FFFD}\u{FDCF}", &reject).unwrap(),
        "\"\u{FFFD}\u{FDCF}\""
    );
}

#[test]
fn custom_errors_get_a_pointer() {
    struct Boom;
    impl Serialize for Boom {
        fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("boom"))
        }
    }
    #[derive(Serialize)]
    struct W {
        a: u8,
        b: (u8, Boom),
    }
    let e = err(&W { a: 1, b: (2, Boom) });
    assert_eq!(e.kind(), &ErrorKind::Custom("boom".into()));
    assert_eq!(e.pointer(), Some("/b/1"));
    assert_eq!(e.to_string(), r#"at "/b/1": boom"#);
}

// ---- serde_json::Value agrees with the text path ----------------------------------------------

const DOCUMENTS: &[&str] = &[
    r#"{"b":[1,2.5,-0,1e21,"x"],"a":{"\ue000":1,"\ud83d\ude00":2}}"#,
    "{\"\u{FB33}\":1,\"\u{1F602}\":2,\"\u{FFFD}\":3,\"\u{10000}\":4,\"\u{E000}\":5}",
    "[9007199254740993,18446744073709551615,-9223372036854775808,1.5e-7,5e-324,1.7976931348623157e308]",
    r#"{"":{"":[]},"a\u0000":"\u001f","\ud83d\ude02":"\ufb33","\/":"\u2028"}"#,
    r#"{"peach":"This sorting order","péché":"is wrong according to French","pêche":"but canonicalization MUST","sin":"ignore locale"}"#,
    "[0.1, 0.30000000000000004, 1E30, 4.50, 2e-3, 0.000001, 1e-7, 123456789012345678901, -0.0]",
    r#""string""#,
    "null",
    "true",
    "123",
    r#"{"a":{"b":{"c":{"d":[{"f":1,"e":2}]}}}}"#,
];

/// The oracle's reader: a `serde_json::Value` with every number correctly rounded (as
/// `serde_json`'s `float_roundtrip` reads it; the workspace builds `serde_json` without it).
#[allow(dead_code, reason = "this test uses the reader only")]
#[path = "shared/reference_jcs.rs"]
mod reference_jcs;

fn assert_value_agrees(name: &str, text: &[u8]) {
    let value = reference_jcs::value_read_exactly(text)
        .unwrap_or_else(|e| panic!("{name}: serde_json: {e}"));
    let from_value = equijson::to_canonical_vec(&value).unwrap_or_else(|e| panic!("{name}: {e}"));
    let from_text = equijson::canonicalize(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        from_value == from_text,
        "{name}:\n value {}\n text  {}",
        String::from_utf8_lossy(&from_value),
        String::from_utf8_lossy(&from_text)
    );
}

#[test]
fn serde_json_value_matches_canonicalize() {
    for (i, doc) in DOCUMENTS.iter().enumerate() {
        assert_value_agrees(&format!("document {i}"), doc.as_bytes());
    }
    // serde_json's map iterates by UTF-8 bytes; the canonical writer must re-sort.
    let v: serde_json::Value = serde_json::from_str("{\"\u{E000}\":1,\"\u{1F600}\":2}").unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["\u{E000}", "\u{1F600}"]);
    assert_eq!(canon(&v), "{\"\u{1F600}\":2,\"\u{E000}\":1}");
}

#[test]
fn serde_json_value_matches_the_rfc_vectors() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jcs");
    for name in [
        "arrays",
        "french",
        "structures",
        "unicode",
        "values",
        "weird",
    ] {
        let input = std::fs::read(dir.join(format!("input/{name}.json"))).unwrap();
        let want = std::fs::read(dir.join(format!("output/{name}.json"))).unwrap();
        let value = reference_jcs::value_read_exactly(&input).unwrap();
        assert_eq!(
            String::from_utf8(equijson::to_canonical_vec(&value).unwrap()).unwrap(),
            String::from_utf8(want).unwrap(),
            "{name}"
        );
        assert_value_agrees(name, &input);
    }
}
