//! `hexwar api --luals`: prints the LuaLS definition file of the `hex.*` API (committed as
//! `types/hexwar.lua`; docs/guide.md, "Editor support").

use clap::Args;

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct ApiArgs {
    /// Print the API as a lua-language-server definition file (`---@meta`).
    #[arg(long)]
    luals: bool,
}

pub fn run(args: &ApiArgs) -> i32 {
    if !args.luals {
        return fail("hexwar api: say which form to print (--luals: the LuaLS definition file)");
    }
    match crate::rules::luals_definitions() {
        Ok(text) => {
            out!("{text}");
            EXIT_OK
        }
        Err(e) => fail(e),
    }
}
