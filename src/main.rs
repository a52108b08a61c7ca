//! The `iridia` command line: the library's second door, made for people and for CI.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
