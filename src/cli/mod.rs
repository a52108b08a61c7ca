//! Subcommands of the `iridia` binary. Exit codes: 0 success (or every compared draw matches), 1 some draw differs,
//! 2 an error (bad input, missing file), with the error on stderr.

mod batch;
mod capture;
mod common;
mod draw;
mod dxbc;
mod explain;
mod inspect;
mod replay;

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
    /// With --draw N (and --stage) or --dispatch N, print a capture's program (the listing `iridia asm` and
    /// `iridia replay --program` read back).
    Disasm {
        /// The shader blob (a DXBC container), or with --draw / --dispatch a capture.
        file: PathBuf,
        #[command(flatten)]
        choice: dxbc::ProgramChoice,
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
    /// Re-run recorded draws on the CPU and compare every target with what the GPU wrote: a table of compared,
    /// differing and ambiguous pixels per draw (or JSON). Exit 0 when every compared draw matches, 1 when some
    /// differ, 2 on an error, 3 when the capture lists draws that were not recorded or nothing was compared.
    Replay {
        /// The captures: .iridia files, and folders (every .iridia file under them). With several, or with --shard,
        /// each capture's table in turn and a summary table (the JSON: a report per capture and the summary).
        #[arg(required = true)]
        captures: Vec<PathBuf>,
        /// Replay this job's share of the work only: K of N jobs (1 <= K <= N), a stable split of the (capture, draw)
        /// pairs; `iridia merge` joins the N jobs' --json reports.
        #[arg(long, value_name = "K/N", value_parser = batch::Shard::parse)]
        shard: Option<batch::Shard>,
        /// Also write a JUnit XML file: a test case per draw, resolve and dispatch (its time, its difference as the
        /// failure message, the --out files it wrote).
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Replay the draw (--draw) with this program in place of its own: STAGE=FILE, the stage vs, ps (or a
        /// bound gs, hs, ds), the file a listing as `iridia disasm` prints it (or a DXBC blob). The draw is also
        /// replayed as recorded, and both differences are reported.
        #[arg(long, value_name = "STAGE=FILE", value_parser = replay::ProgramEdit::parse, requires = "draw")]
        program: Vec<replay::ProgramEdit>,
        /// Replay this draw only (from 0).
        #[arg(long, value_name = "N", conflicts_with = "all")]
        draw: Option<usize>,
        /// Replay every draw (the default).
        #[arg(long)]
        all: bool,
        /// Compare bit for bit.
        #[arg(long, conflicts_with = "tolerance")]
        exact: bool,
        /// The tolerance, e.g. `ulp=2`, `abs=1e-3,position=1`, `d.ulp=4` (docs: iridia::compare::tolerance); by
        /// default each format's (1 code for UNORM, 4 ULP for float32, exact for integers).
        #[arg(long, value_name = "SPEC")]
        tolerance: Option<String>,
        /// Print a JSON report instead of the table.
        #[arg(long)]
        json: bool,
        /// Write each draw's replayed texels (drawN.rtM.bin, drawN.depth.bin) and pictures (replayed, recorded,
        /// difference mask, heatmap) into this folder.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Also score how visible each render target's difference is (LDR-FLIP, 0 invisible to 1): the JSON's
        /// `perceptual` (mean, p50, p95, p99, max of the error map of the replayed against the recorded picture)
        /// and, with --out, the error map as drawN.rtM.flip.png. The verdict and exit code do not change.
        #[arg(long)]
        flip: bool,
        /// Accept an incomplete comparison: draws the recorder could not record, or nothing compared, exit 0 or 1
        /// rather than 3.
        #[arg(long)]
        allow_unrecorded: bool,
        /// Stop a draw that runs longer than this many seconds (an error naming it; the other draws go on); 0: no
        /// limit.
        #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
        time_limit: f64,
        #[command(flatten)]
        limits: common::Limits,
        #[command(flatten)]
        implementation: common::Implementation,
    },
    /// Merge the --json reports of `iridia replay` jobs (the N shards of one run) into one report: its table (or
    /// JSON) and JUnit file as one unsharded run gives them, and its exit code (0, 1, 2, 3 as replay's).
    Merge {
        /// The reports (each `iridia replay --json` output).
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Print the merged JSON report instead of the tables.
        #[arg(long)]
        json: bool,
        /// Also write the merged run's JUnit XML file.
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Accept an incomplete comparison (as for replay).
        #[arg(long)]
        allow_unrecorded: bool,
    },
    /// Explain one pixel of a replayed draw: its recorded and replayed values, a one-line verdict, and its history
    /// (fragments, tests, the triangle's vertex inputs and outputs, interpolated inputs, the pixel program's trace).
    /// Exit 0 when the pixel matches, 1 when it differs, 2 on an error.
    Inspect {
        /// The capture (.iridia).
        capture: PathBuf,
        /// The draw (from 0).
        #[arg(
            long,
            value_name = "N",
            required_unless_present = "dispatch",
            conflicts_with = "dispatch"
        )]
        draw: Option<usize>,
        /// The pixel: column,row from the top left.
        #[arg(
            long,
            value_name = "X,Y",
            required_unless_present = "dispatch",
            conflicts_with = "dispatch"
        )]
        pixel: Option<String>,
        /// Inspect an element of dispatch N's view instead of a draw's pixel: which threads wrote it, in order, and
        /// their traces.
        #[arg(long, value_name = "N", requires = "element")]
        dispatch: Option<usize>,
        /// The dispatch's view slot, u# (default 0).
        #[arg(long, value_name = "SLOT", default_value_t = 0, requires = "dispatch")]
        uav: u32,
        /// The element of the dispatch's view, as its instructions address it: a typed view's coordinates X[,Y[,Z]],
        /// a raw view's byte offset, a structured view's STRUCTURE[,BYTE OFFSET]; or `counter`, the view's hidden
        /// counter (every imm_atomic_alloc and imm_atomic_consume).
        #[arg(long, value_name = "X[,Y[,Z]]", requires = "dispatch")]
        element: Option<String>,
        /// The target: rt0 to rt7, or depth (by default rt0, or the draw's only target).
        #[arg(long, value_name = "TARGET")]
        target: Option<String>,
        /// Compare bit for bit.
        #[arg(long, conflicts_with = "tolerance")]
        exact: bool,
        /// The tolerance (as for replay).
        #[arg(long, value_name = "SPEC")]
        tolerance: Option<String>,
        /// Also trace the vertex program for one vertex: F,C is corner C (0 to 2) of fragment F's triangle.
        #[arg(long, value_name = "F,C")]
        trace_vertex: Option<String>,
        /// Which sample of a multisampled target (from 0; the pixel's row is in the sample's plane).
        #[arg(long, value_name = "S", default_value_t = 0)]
        sample: u32,
        /// Print the whole inspection as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        limits: common::Limits,
        #[command(flatten)]
        implementation: common::Implementation,
    },
    /// Explain why a draw differs: replay it under each implementation choice the spec allows (a variant), alone and
    /// combined, and name the set that reproduces what the GPU wrote, or how many pixels stay unexplained. Compares
    /// bit for bit unless --tolerance. Exit 0 when the draw matches or a set reproduces it, 1 when pixels stay
    /// unexplained, 2 on an error.
    Explain(explain::ExplainArgs),
}

/// The exit code of a replay or merge: 0 matches, 1 differs, 2 an error, 3 incomplete.
fn verdict_exit(result: Result<batch::Verdict, String>) -> ExitCode {
    match result {
        Ok(batch::Verdict::Matches) => ExitCode::SUCCESS,
        Ok(batch::Verdict::Differs) => ExitCode::from(1),
        Ok(batch::Verdict::Failed) => ExitCode::from(2),
        Ok(batch::Verdict::Incomplete) => ExitCode::from(3),
        Err(message) => failure(message),
    }
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
        Command::Inspect {
            capture,
            draw,
            pixel,
            target,
            exact,
            tolerance,
            trace_vertex,
            sample,
            json,
            limits,
            implementation,
            dispatch,
            uav,
            element,
        } => {
            if let (Some(dispatch), Some(element)) = (dispatch, element) {
                let args = inspect::ElementArgs {
                    capture,
                    dispatch,
                    uav,
                    element,
                    exact,
                    tolerance,
                    json,
                    limits,
                };
                return match inspect::inspect_element(&args) {
                    Ok(true) => ExitCode::SUCCESS,
                    Ok(false) => ExitCode::from(1),
                    Err(message) => failure(message),
                };
            }
            let (Some(draw), Some(pixel)) = (draw, pixel) else {
                return failure("inspect: give --draw N --pixel X,Y, or --dispatch N --element X[,Y[,Z]]");
            };
            let args = inspect::InspectArgs {
                limits,
                implementation,
                capture,
                draw,
                pixel,
                target,
                exact,
                tolerance,
                trace_vertex,
                sample,
                json,
            };
            return match inspect::inspect(&args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(message) => failure(message),
            };
        }
        Command::Replay {
            captures,
            shard,
            junit,
            program,
            draw,
            all: _,
            exact,
            tolerance,
            json,
            out,
            flip,
            allow_unrecorded,
            time_limit,
            limits,
            implementation,
        } => {
            let args = replay::ReplayArgs {
                limits,
                implementation,
                captures,
                shard,
                junit,
                programs: program,
                draw,
                exact,
                tolerance,
                json,
                out,
                flip,
                allow_unrecorded,
                time_limit: (time_limit > 0.0 && time_limit.is_finite())
                    .then(|| std::time::Duration::from_secs_f64(time_limit)),
            };
            return verdict_exit(replay::replay(&args));
        }
        Command::Merge {
            reports,
            json,
            junit,
            allow_unrecorded,
        } => {
            return verdict_exit(batch::merge_command(&reports, json, junit.as_deref(), allow_unrecorded));
        }
        Command::Explain(args) => {
            return match explain::explain(&args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(message) => failure(message),
            };
        }
        Command::Version => {
            println!("iridia {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Command::Disasm { file, choice } => dxbc::disasm(&file, &choice),
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
