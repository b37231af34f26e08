//! The `hexwar` command: parse arguments, run, map the outcome to an exit code
//! (0 ok, 1 game-level failure, 2 bad input or internal error).

/// The allocator of the binary (and of the benchmarks, so they measure what the binary does):
/// mimalloc, which serves the engine's many small strings and maps faster than the system one.
#[cfg(feature = "fast-alloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let code = hexwar::cli::main_with_args(std::env::args_os());
    std::process::exit(code);
}
