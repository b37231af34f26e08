//! The `hexwar` command: parse arguments, run, map the outcome to an exit code
//! (0 ok, 1 game-level failure, 2 bad input or internal error).

fn main() {
    let code = hexwar::cli::main_with_args(std::env::args_os());
    std::process::exit(code);
}
