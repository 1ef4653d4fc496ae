//! Scans a table with a DTO declared here, outside the equijson catalogue.
//!
//! `cargo run -p equijson-pg --example scan_my_dto` starts an ephemeral cluster, creates an
//! `orders` table with a few rows (one of them with a duplicate key and one with an amount
//! beyond `u64`), then checks every row through every decode path of `Order`. With
//! `DATABASE_URL` set it scans that server's `orders.doc` instead (nothing is created).

#![allow(clippy::print_stdout, reason = "an example prints its report")]

use equijson_check::decode::{Accept, Class};
use equijson_pg::{EphemeralCluster, ScanOptions, Target};
use serde::{Deserialize, Serialize};

/// The service's own DTO.
#[derive(Debug, Serialize, Deserialize)]
struct Order {
    id: u64,
    customer: String,
    total_cents: u64,
    #[serde(default)]
    lines: Vec<OrderLine>,
}

#[derive(Debug, Serialize, Deserialize)]
struct OrderLine {
    sku: String,
    qty: u32,
}

/// What this service accepts: unknown keys are dropped on purpose.
const ACCEPTS: &[Accept] = &[Accept {
    class: Class::RoundTripLoss,
    only: &[],
    reason: "Order ignores keys it does not know",
}];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => Target::from_url(&url)?,
        _ => {
            let cluster = EphemeralCluster::start()?;
            let mut client = cluster.config().connect(postgres::NoTls)?;
            client.batch_execute(
                r#"CREATE TABLE orders (id bigint PRIMARY KEY, doc jsonb);
                   INSERT INTO orders VALUES
                     (1, '{"id":1,"customer":"Ada","total_cents":1250,"lines":[{"sku":"A-1","qty":2}]}'),
                     (2, '{"id":2,"customer":"Grace","total_cents":99,"coupon":"WELCOME"}'),
                     (3, '{"id":3,"customer":"Edsger","customer":"E. W. Dijkstra","total_cents":5}'),
                     (4, '{"id":4,"customer":"Barbara","total_cents":18446744073709551616}')"#,
            )?;
            Target::ephemeral(cluster)
        }
    };
    println!("server: {}", target.describe());
    let opts = ScanOptions {
        table: "orders".into(),
        column: "doc".into(),
        key: Some("id".into()),
        ..ScanOptions::default()
    };
    let report = equijson_pg::scan::<Order>(target.config(), &opts, ACCEPTS)?;
    print!("{}", report.render());
    // Row 4's amount overflows u64 on every path (a consistent rejection, not a split);
    // row 3's duplicate key was resolved by jsonb before any path saw it.
    Ok(())
}
