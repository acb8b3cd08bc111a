//! Generation plans for existing workflow engines (`egtb-gen plan`): the tables of a set form a
//! dependency graph (a table needs the tables its captures lead to), and each table is one
//! `egtb-gen gen SIG` job. Written as a Makefile, `make -j N` runs the graph on one machine; as
//! a Snakemake file, Snakemake runs the same jobs on a cluster through its executors (SLURM,
//! Kubernetes, ...), each job asking for the memory its table needs. No scheduler of our own.
//!
//! A job finds its dependencies already written (the workflow engine ran them first) and writes
//! its one table through a temporary file renamed into place, so jobs of one plan never write
//! the same file, and a job cut short leaves no half table that would count as done.
//!
//! Both files check the tables too, as jobs of the same graph: `egtb-gen verify` and `egtb-gen
//! crosscheck` of each table's files once the table is there, each job's JSON verdict kept as
//! `TABLE.verify.json` or `TABLE.crosscheck.json` beside the table (the target `check`, or
//! `verify` and `crosscheck` alone). A job whose check fails makes nothing, so the workflow
//! engine reports it and runs it again the next time.

use std::fmt::Write as _;
use std::path::Path;

use chariot_formats::egtb::{Metric, Signature};

use crate::error::TableError;
use crate::pipeline::{memory_estimate, table_path_in};

/// One job: a table, the tables it needs, its size and its estimated peak memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The table.
    pub table: Signature,
    /// The tables its captures lead to.
    pub needs: Vec<Signature>,
    /// Its entries (both sides to move).
    pub entries: u64,
    /// Estimated peak memory of generating it, bytes.
    pub memory: u64,
}

/// Every job needed for some tables, dependencies first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The tables asked for.
    pub wanted: Vec<Signature>,
    /// Every table to generate (those asked for and their dependencies), smallest first.
    pub jobs: Vec<Job>,
    /// The files each job writes (`gen --metric`): DTM, DTC or both.
    pub metrics: Vec<Metric>,
}

impl Plan {
    /// The plan for `wanted` and everything they depend on, each job writing the files of
    /// `metrics` (not empty).
    ///
    /// # Errors
    /// When a table cannot be indexed (its memory cannot be estimated).
    pub fn new(wanted: &[Signature], metrics: &[Metric]) -> Result<Plan, TableError> {
        let jobs = crate::pipeline::generation_order(wanted)
            .into_iter()
            .map(|table| {
                Ok(Job {
                    needs: table.captures(),
                    entries: 2 * chariot_formats::egtb::Indexer::new(table)?.size(),
                    memory: memory_estimate(table)?,
                    table,
                })
            })
            .collect::<Result<Vec<_>, TableError>>()?;
        let mut asked = Vec::new();
        for s in wanted {
            if !asked.contains(s) {
                asked.push(*s);
            }
        }
        Ok(Plan {
            wanted: asked,
            jobs,
            metrics: metrics.to_vec(),
        })
    }

    /// The file whose presence says a job is done: the DTC file when the job writes one (`gen`
    /// writes it last, after the DTM file), else the DTM file. A table of the plan needs this
    /// file of each table it captures into, which is what `gen --metric` reads.
    fn done_metric(&self) -> Metric {
        if self.metrics.contains(&Metric::Dtc) {
            Metric::Dtc
        } else {
            Metric::Dtm
        }
    }

    /// A table's files, as the jobs write them, in `dir`.
    fn files_in(&self, dir: &str, table: Signature) -> String {
        self.metrics
            .iter()
            .map(|&m| {
                table_path_in(Path::new(dir), table, m)
                    .to_string_lossy()
                    .into_owned()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The `--metric` argument of every job.
    fn metric_arg(&self) -> &'static str {
        match (
            self.metrics.contains(&Metric::Dtm),
            self.metrics.contains(&Metric::Dtc),
        ) {
            (true, true) => "both",
            (false, true) => "dtc",
            _ => "dtm",
        }
    }

    /// The plan as a Makefile: `make -j N -f FILE` generates every table into `dir` (override
    /// with `make DIR=...`), with `EGTB_GEN` the program (default `egtb-gen`) and `GEN_FLAGS`
    /// more options for every `gen` (e.g. `--level 19`); `make -j N -f FILE check` generates
    /// and checks them (`verify` and `crosscheck`, also targets alone). `origin` is the command
    /// that wrote it.
    #[must_use]
    pub fn makefile(&self, dir: &Path, origin: &str) -> String {
        let done = self.done_metric();
        let file = |s: &Signature| {
            table_path_in(Path::new("$(DIR)"), *s, done)
                .to_string_lossy()
                .into_owned()
        };
        let mut out = String::new();
        let _ = writeln!(out, "# Written by `{origin}`.");
        let _ = writeln!(
            out,
            "# {} tables: `make -j N -f THIS_FILE` generates them, each table after the tables it",
            self.jobs.len()
        );
        let _ = writeln!(
            out,
            "# needs; a table already generated is not made again. {} in all; each job's",
            chariot_cli::count(
                self.jobs.iter().map(|j| j.entries).sum(),
                "entry",
                "entries"
            )
        );
        let _ = writeln!(
            out,
            "# entries and estimated peak memory are in the comment above its rule. `make check`"
        );
        let _ = writeln!(
            out,
            "# generates them and checks each one with `verify` and `crosscheck` (targets `verify`"
        );
        let _ = writeln!(
            out,
            "# and `crosscheck` alone), each verdict kept as TABLE.verify.json or"
        );
        let _ = writeln!(
            out,
            "# TABLE.crosscheck.json beside the table; a failed check leaves TABLE.*.json.part."
        );
        let _ = writeln!(out, "EGTB_GEN ?= egtb-gen");
        let _ = writeln!(out, "DIR ?= {}", dir.display());
        let _ = writeln!(out, "GEN_FLAGS ?=");
        let _ = writeln!(out);
        let _ = writeln!(out, ".PHONY: all check verify crosscheck");
        let wanted: Vec<String> = self.wanted.iter().map(file).collect();
        let _ = writeln!(out, "all: {}", wanted.join(" "));
        let _ = writeln!(out, "check: verify crosscheck");
        for check in CHECKS {
            let verdicts: Vec<String> = self
                .jobs
                .iter()
                .map(|j| format!("$(DIR)/{}.{check}.json", j.table))
                .collect();
            let _ = writeln!(out, "{check}: {}", verdicts.join(" "));
        }
        for job in &self.jobs {
            let needs: Vec<String> = job.needs.iter().map(file).collect();
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "# {}: {}, about {} MiB",
                job.table,
                chariot_cli::count(job.entries, "entry", "entries"),
                mib(job.memory)
            );
            let rule = format!("{}: {}", file(&job.table), needs.join(" "));
            let _ = writeln!(out, "{}", rule.trim_end());
            let _ = writeln!(
                out,
                "\t$(EGTB_GEN) gen {} --dir $(DIR) --metric {} $(GEN_FLAGS)",
                job.table,
                self.metric_arg()
            );
            for check in CHECKS {
                let _ = writeln!(
                    out,
                    "$(DIR)/{}.{check}.json: {}",
                    job.table,
                    file(&job.table)
                );
                let _ = writeln!(
                    out,
                    "\t$(EGTB_GEN) {check} --json {} > $@.part && mv $@.part $@",
                    self.files_in("$(DIR)", job.table)
                );
            }
        }
        out
    }

    /// The plan as a Snakemake file: `snakemake --cores N` (or `--executor slurm ...`) runs
    /// the same jobs, each with `resources: mem_mb`; `snakemake check` (or `verify`,
    /// `crosscheck`) checks every table too. `--config dir=... egtb_gen=... flags=...`
    /// override the directory, the program and the options.
    #[must_use]
    pub fn snakefile(&self, dir: &Path, origin: &str) -> String {
        let name = |s: &Signature| format!("\"{s}\"");
        let file = file_pattern(self.done_metric());
        // A check's arguments: the table's files, after the rule's wildcard.
        let checked: Vec<String> = self
            .metrics
            .iter()
            .map(|&m| {
                format!(
                    "{{DIR}}/{}",
                    file_pattern(m).replace("{t}", "{wildcards.table}")
                )
            })
            .collect();
        let mut out = String::new();
        let _ = writeln!(out, "# Written by `{origin}`.");
        let _ = writeln!(
            out,
            "# {} tables: `snakemake -s THIS_FILE --cores N` generates them, each table after",
            self.jobs.len()
        );
        let _ = writeln!(
            out,
            "# the tables it needs; on a cluster, add Snakemake's executor options."
        );
        let _ = writeln!(out, "EGTB_GEN = config.get(\"egtb_gen\", \"egtb-gen\")");
        let _ = writeln!(
            out,
            "DIR = config.get(\"dir\", {:?})",
            dir.display().to_string()
        );
        let _ = writeln!(out, "FLAGS = config.get(\"flags\", \"\")");
        let _ = writeln!(out);
        let _ = writeln!(out, "# Each table: the tables it needs.");
        let _ = writeln!(out, "NEEDS = {{");
        for job in &self.jobs {
            let needs: Vec<String> = job.needs.iter().map(name).collect();
            let _ = writeln!(out, "    \"{}\": [{}],", job.table, needs.join(", "));
        }
        let _ = writeln!(out, "}}");
        let _ = writeln!(out);
        let _ = writeln!(out, "# Each table: its estimated peak memory, MiB.");
        let _ = writeln!(out, "MEMORY = {{");
        for job in &self.jobs {
            let _ = writeln!(out, "    \"{}\": {},", job.table, mib(job.memory));
        }
        let _ = writeln!(out, "}}");
        let _ = writeln!(out);
        let wanted: Vec<String> = self.wanted.iter().map(name).collect();
        let _ = writeln!(out, "rule all:");
        let _ = writeln!(
            out,
            "    input: [f\"{{DIR}}/{file}\" for t in [{}]]",
            wanted.join(", ")
        );
        let _ = writeln!(out);
        let _ = writeln!(out, "rule table:");
        let _ = writeln!(
            out,
            "    input: lambda w: [f\"{{DIR}}/{file}\" for t in NEEDS[w.table]]"
        );
        let output = file.replace("{t}", "{table}");
        let _ = writeln!(out, "    output: DIR + \"/{output}\"");
        let _ = writeln!(out, "    wildcard_constraints: table = \"|\".join(NEEDS)");
        let _ = writeln!(out, "    resources: mem_mb = lambda w: MEMORY[w.table]");
        let _ = writeln!(
            out,
            "    shell: \"{{EGTB_GEN}} gen {{wildcards.table}} --dir {{DIR}} --metric {} {{FLAGS}}\"",
            self.metric_arg()
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "# Checks: `snakemake check` (or `verify`, `crosscheck`), each table's verdict in"
        );
        let _ = writeln!(
            out,
            "# TABLE.verify.json and TABLE.crosscheck.json beside it (within its generation's memory)."
        );
        let _ = writeln!(out, "rule check:");
        let _ = writeln!(
            out,
            "    input: [f\"{{DIR}}/{{t}}.{{c}}.json\" for t in NEEDS for c in [{}]]",
            CHECKS.map(|c| format!("\"{c}\"")).join(", ")
        );
        for check in CHECKS {
            let _ = writeln!(out);
            let _ = writeln!(out, "rule {check}:");
            let _ = writeln!(
                out,
                "    input: [f\"{{DIR}}/{{t}}.{check}.json\" for t in NEEDS]"
            );
            let _ = writeln!(out);
            let _ = writeln!(out, "rule {check}_table:");
            let _ = writeln!(out, "    input: DIR + \"/{output}\"");
            let _ = writeln!(out, "    output: DIR + \"/{{table}}.{check}.json\"");
            let _ = writeln!(out, "    wildcard_constraints: table = \"|\".join(NEEDS)");
            let _ = writeln!(out, "    resources: mem_mb = lambda w: MEMORY[w.table]");
            let _ = writeln!(
                out,
                "    shell: \"{{EGTB_GEN}} {check} --json {} > {{output}}\"",
                checked.join(" ")
            );
        }
        out
    }
}

/// The checks of every table, each a command of `egtb-gen` that takes `--json` and the
/// table's files, and the name of its verdict file (`TABLE.CHECK.json`).
const CHECKS: [&str; 2] = ["verify", "crosscheck"];

/// The file name of a table in a Snakemake pattern, after its name `{t}`: `{t}.egtb` or
/// `{t}.dtc.egtb` (as `table_path_in` names them).
fn file_pattern(metric: Metric) -> &'static str {
    match metric {
        Metric::Dtm => "{t}.egtb",
        Metric::Dtc => "{t}.dtc.egtb",
    }
}

/// Bytes as whole MiB, rounded up (at least 1).
fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_comes_after_what_it_needs() {
        let wanted: Vec<Signature> = ["KRKA", "KCKAB"].map(|s| s.parse().unwrap()).to_vec();
        let plan = Plan::new(&wanted, &Metric::ALL).unwrap();
        for (i, job) in plan.jobs.iter().enumerate() {
            for need in &job.needs {
                let at = plan.jobs.iter().position(|j| j.table == *need).unwrap();
                assert!(at < i, "{} needs {need}, planned later", job.table);
            }
        }
        assert!(plan.jobs.iter().any(|j| j.table.to_string() == "KRK"));
        let make = plan.makefile(Path::new("/t"), "egtb-gen plan KRKA KCKAB");
        // Both metrics: a job is done when its DTC file (written last) is there.
        assert!(
            make.contains("all: $(DIR)/KRKA.dtc.egtb $(DIR)/KCKAB.dtc.egtb\n"),
            "{make}"
        );
        assert!(
            make.contains("$(DIR)/KRKA.dtc.egtb: $(DIR)/KAK.dtc.egtb $(DIR)/KRK.dtc.egtb\n"),
            "{make}"
        );
        assert!(make.contains("\t$(EGTB_GEN) gen KRKA --dir $(DIR) --metric both $(GEN_FLAGS)\n"));
        let dtm = Plan::new(&wanted, &[Metric::Dtm]).unwrap();
        let make = dtm.makefile(Path::new("/t"), "egtb-gen plan --metric dtm KRKA KCKAB");
        assert!(
            make.contains("all: $(DIR)/KRKA.egtb $(DIR)/KCKAB.egtb\n"),
            "{make}"
        );
        assert!(make.contains("\t$(EGTB_GEN) gen KRKA --dir $(DIR) --metric dtm $(GEN_FLAGS)\n"));
        let dtc = Plan::new(&wanted, &[Metric::Dtc]).unwrap();
        let snake = dtc.snakefile(Path::new("/t"), "egtb-gen plan --metric dtc KRKA KCKAB");
        assert!(
            snake.contains("    output: DIR + \"/{table}.dtc.egtb\""),
            "{snake}"
        );
        assert!(snake.contains("--metric dtc {FLAGS}"), "{snake}");
        let snake = plan.snakefile(Path::new("/t"), "egtb-gen plan KRKA KCKAB");
        let krka = snake
            .lines()
            .find(|l| l.starts_with("    \"KRKA\": ["))
            .unwrap();
        assert!(krka.contains("\"KRK\""), "{krka}");
        assert!(snake.contains("rule table:"));
    }
}
