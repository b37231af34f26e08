//! `hexwar api --luals`: prints the LuaLS definition file of the `hex.*` API (committed as
//! `types/hexwar.lua`; docs/guide.md, "Editor support"); `hexwar api --json`: the same API as
//! one JSON object, for tools.

use clap::Args;

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct ApiArgs {
    /// Print the API as a lua-language-server definition file (`---@meta`).
    #[arg(long, conflicts_with = "json")]
    luals: bool,
    /// Print the API as JSON: `api_version`, `fields`, `functions`, `namespaces`, `classes`,
    /// `aliases`.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ApiArgs) -> i32 {
    if args.json {
        return match crate::rules::api_listing() {
            Ok(listing) => match serde_json::to_string(&listing) {
                Ok(text) => {
                    outln!("{text}");
                    EXIT_OK
                }
                Err(e) => fail(format!("cannot write the API as JSON: {e}")),
            },
            Err(e) => fail(e),
        };
    }
    if !args.luals {
        return fail(
            "hexwar api: say which form to print (--luals: the LuaLS definition file, \
             --json: the API as JSON)",
        );
    }
    match crate::rules::luals_definitions() {
        Ok(text) => {
            out!("{text}");
            EXIT_OK
        }
        Err(e) => fail(e),
    }
}
