//! The orders-file parser of `hexwar play` (`src/cli/orders.rs`), and the commands it gives
//! applied to the demo game (`[[order]]` files) or to Diplomacy (`[[phase]]` files, the first
//! two phases): every refused or failing command leaves the state unchanged.
#![no_main]

use std::path::Path;

use hexwar::cli::orders::{parse_orders, OrdersFile};
use hexwar::engine::Command;
use hexwar_fuzz::{start, submit_checked, MAX_COMMANDS};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

fuzz_target!(|data: &[u8]| {
    let Some(text) = hexwar_fuzz::text(data) else {
        return;
    };
    match parse_orders(Path::new("fuzz/orders.toml"), text) {
        Err(_) => {}
        Ok(OrdersFile::Commands(orders)) => {
            let mut session = start("demo");
            for order in orders.iter().take(MAX_COMMANDS) {
                let side = order.side.clone().or_else(|| session.game.phasing_side());
                let _ = submit_checked(&mut session.game, side.as_deref(), &order.command);
            }
        }
        Ok(OrdersFile::Phases(phases)) => {
            let mut session = start("diplomacy");
            for phase in phases.iter().take(2) {
                for (power, orders) in &phase.orders {
                    let mut args = Map::new();
                    args.insert("power".into(), Value::String(power.clone()));
                    args.insert("orders".into(), orders.clone().into());
                    let command = Command::Custom {
                        name: "orders".into(),
                        args,
                    };
                    let _ = submit_checked(&mut session.game, Some(power), &command);
                }
                let _ = submit_checked(&mut session.game, None, &Command::EndPhase);
            }
        }
    }
});
