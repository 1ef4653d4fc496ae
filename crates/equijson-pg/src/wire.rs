//! Raw values on the wire: parameters sent and results read as the server's own bytes.

use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

/// A result column read as the bytes the server sent (binary format), whatever its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raw(pub Vec<u8>);

impl<'a> FromSql<'a> for Raw {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Self(raw.to_vec()))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// A `json` or `jsonb` parameter sent in binary format: for `jsonb` the version byte `1`
/// and the text (what `jsonb_recv` reads), for `json` the text itself (`json_recv`).
#[derive(Debug, Clone, Copy)]
pub struct JsonParam<'a>(pub &'a [u8]);

impl ToSql for JsonParam<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        if *ty == Type::JSONB {
            out.extend_from_slice(&[1]);
        }
        out.extend_from_slice(self.0);
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::JSON || *ty == Type::JSONB
    }

    to_sql_checked!();
}
