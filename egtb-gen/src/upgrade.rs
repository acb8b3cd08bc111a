//! `egtb-gen repack`: the command's output (one line or JSON object per file, a total); the
//! rewriting itself is `egtb_gen::repack`.

use std::io::Write;
use std::path::PathBuf;

use egtb_gen::dtm::Progress;
use serde::Serialize;

/// One file's outcome, as `repack --json` prints it.
#[derive(Debug, Serialize)]
struct Outcome {
    file: String,
    /// The format version the file had (absent when it could not be read).
    version: Option<u16>,
    /// The file was rewritten in the current version.
    rewritten: bool,
    /// Its size before and after, in bytes.
    before: Option<u64>,
    after: Option<u64>,
    /// Why it could not be rewritten (it is then left as it was).
    error: Option<String>,
}

/// `egtb-gen repack`: rewrites each file in the current format version at zstd `level`.
/// `Ok(false)` when some file could not be rewritten (the others are).
pub fn repack(files: &[PathBuf], level: i32, json: bool) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    let mut all_ok = true;
    // On standard error, and only on a terminal (indicatif hides it otherwise).
    let bar = indicatif::ProgressBar::new_spinner();
    let stages = crate::tools::StageBar(&bar);
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    let (mut before, mut after, mut rewritten) = (0u64, 0u64, 0usize);
    for path in files {
        let file = path.display().to_string();
        bar.reset();
        bar.set_prefix(file.clone());
        stages.stage("opening", 0);
        let result = egtb_gen::repack::repack_with(path, level, &stages);
        let outcome = match result {
            Ok(r) => {
                before += r.before;
                after += r.after;
                rewritten += usize::from(r.rewritten);
                Outcome {
                    file,
                    version: Some(r.version),
                    rewritten: r.rewritten,
                    before: Some(r.before),
                    after: Some(r.after),
                    error: None,
                }
            }
            Err(e) => Outcome {
                file,
                version: None,
                rewritten: false,
                before: None,
                after: None,
                error: Some(chariot_cli::message(&anyhow::Error::from(e))),
            },
        };
        all_ok &= outcome.error.is_none();
        // The file's line, with the bar lifted off the terminal while it is written.
        bar.suspend(|| -> anyhow::Result<()> {
            if json {
                writeln!(out, "{}", serde_json::to_string(&outcome)?)?;
            } else if let Some(error) = &outcome.error {
                writeln!(out, "{}: error: {error}", outcome.file)?;
            } else if outcome.rewritten {
                let (b, a) = (outcome.before.unwrap_or(0), outcome.after.unwrap_or(0));
                writeln!(
                    out,
                    "{}: version {} -> {}, {b} -> {a} bytes ({:.2})",
                    outcome.file,
                    outcome.version.unwrap_or(0),
                    chariot_formats::egtb::file::VERSION,
                    a as f64 / b.max(1) as f64
                )?;
            } else {
                writeln!(
                    out,
                    "{}: version {} already, left as it is",
                    outcome.file,
                    outcome.version.unwrap_or(0)
                )?;
            }
            out.flush()?;
            Ok(())
        })?;
    }
    bar.finish_and_clear();
    if !json && files.len() > 1 {
        writeln!(
            out,
            "{rewritten} of {} files rewritten; {before} -> {after} bytes ({:.2})",
            files.len(),
            after as f64 / before.max(1) as f64
        )?;
    }
    Ok(all_ok)
}
