//! Subcommands of the `iridia` binary. Exit codes: 0 success (or every compared draw matches), 1 some draw differs,
//! 2 an error (bad input, missing file), with the error on stderr.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Re-run recorded Direct3D 11 draws on the CPU and compare them with what the GPU wrote.
#[derive(Parser)]
#[command(name = "iridia", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the library version.
    Version,
}

/// Parses the command line and runs the subcommand it names.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Version => {
            println!("iridia {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
    }
}
