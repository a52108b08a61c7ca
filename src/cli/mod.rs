//! Subcommands of the `iridia` binary. Exit codes: 0 success (or every compared draw matches), 1 some draw differs,
//! 2 an error (bad input, missing file), with the error on stderr.

mod capture;
mod draw;
mod dxbc;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
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
    /// Print a DXBC shader as an fxc-style listing (signatures, declarations, instructions).
    Disasm {
        /// The shader blob (a DXBC container).
        file: PathBuf,
    },
    /// Assemble a listing (as `disasm` prints it) into a DXBC shader blob.
    Asm {
        /// The listing.
        file: PathBuf,
        /// Where to write the blob.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Run a draw description's draws on the CPU and write the targets as d3d11-ref's refrender does
    /// (PREFIX.json, PREFIX.rtN.bin, PREFIX.depth.bin).
    Draw {
        /// The draw description (JSON; see docs/draw-description.md).
        description: PathBuf,
        /// The output prefix.
        #[arg(long)]
        out: PathBuf,
    },
    /// List what a capture holds: its draws, their programs, targets and formats (inflates no blob but the
    /// programs', unless --check). Exit 2 when any draw cannot be read.
    Info {
        /// The capture (.iridia).
        capture: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also read every draw whole, inflating and verifying every blob (sizes, SHA-256).
        #[arg(long)]
        check: bool,
    },
    /// Make a capture from a draw description: one capture draw per description draw, each draw's targets
    /// before it the description's clears (first draw) or the previous draw's recorded after.
    Pack {
        /// The draw description (.json, as d3d11-ref's refrender.sh reads it).
        description: PathBuf,
        /// A reference render's output prefix (PREFIX.json, PREFIX.rtN.bin, PREFIX.depth.bin) holding the targets
        /// after a draw: give one per draw, in order. Without it, a one-draw capture records no after.
        #[arg(long, value_name = "PREFIX")]
        recorded: Vec<PathBuf>,
        /// Where to write the capture.
        #[arg(short, long)]
        output: PathBuf,
        /// The manifest's "application" (by default the description's file name).
        #[arg(long)]
        application: Option<String>,
    },
}

/// The exit code for an error: 2, with the message on stderr.
fn failure(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("iridia: {message}");
    ExitCode::from(2)
}

/// Parses the command line and runs the subcommand it names.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Version => {
            println!("iridia {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Command::Disasm { file } => dxbc::disasm(&file),
        Command::Asm { file, output } => dxbc::asm(&file, &output),
        Command::Draw { description, out } => draw::draw(&description, &out),
        Command::Info { capture, json, check } => capture::info(&capture, json, check),
        Command::Pack {
            description,
            recorded,
            output,
            application,
        } => capture::pack(&description, &recorded, &output, application),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => failure(message),
    }
}
