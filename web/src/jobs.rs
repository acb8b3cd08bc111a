//! Long work started from the browser (importing a game file, compiling a book, reviewing a game)
//! runs as a job on a thread of its own; the request that starts it answers `202 Accepted` with
//! the job's id at once, and `GET /api/jobs/{id}` (in `crate::api`) says how far it is and, at
//! the end, what it did or why it failed. A job may publish its result so far while it runs (a
//! review), and one may be cancelled (a review: `DELETE /api/review/{id}`), which its thread
//! sees and stops for. The server keeps the last [`KEPT`] jobs.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Serialize;

/// How many jobs the server remembers (the oldest finished one is forgotten first).
pub const KEPT: usize = 64;

/// How many jobs may run (or wait for their turn) at once; more are refused, so that uploads
/// cannot pile up threads and temporary files without bound.
pub const MAX_RUNNING: usize = 8;

/// Where a job stands.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Working.
    Running,
    /// Finished; `result` says what it did.
    Done,
    /// Stopped by an error; `error` says which.
    Failed,
    /// Stopped on request before it finished; `result` holds what it had done.
    Cancelled,
}

/// A job as `GET /api/jobs/{id}` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct JobView {
    /// Its id.
    pub id: String,
    /// `import`, `book` or `review`.
    pub kind: &'static str,
    /// What it works on (a file's name, a book's name).
    pub subject: String,
    /// `running`, `done`, `failed` or `cancelled`.
    pub state: Stage,
    /// Units of work done so far.
    pub done: u64,
    /// Units of work in all, when known.
    pub total: Option<u64>,
    /// What the units are (`games`, `positions`).
    pub unit: &'static str,
    /// Seconds since it started (until it ended, once it has).
    pub seconds: f64,
    /// What it did, once done (a job that publishes its work as it goes: what it did so far).
    pub result: Option<serde_json::Value>,
    /// Why it failed, if it did.
    pub error: Option<String>,
}

/// One job, shared by its thread and the server.
pub struct Job {
    started: Instant,
    view: Mutex<JobView>,
    cancelled: AtomicBool,
}

impl Job {
    fn update(&self, f: impl FnOnce(&mut JobView)) {
        let mut v = self.view.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut v);
    }

    /// Reports progress: `done` units of `total`.
    pub fn progress(&self, done: u64, total: Option<u64>) {
        self.update(|v| {
            v.done = done;
            v.total = total.or(v.total);
        });
    }

    /// Reports progress with what the job has done so far (its `result` while it runs).
    pub fn report(&self, done: u64, total: Option<u64>, so_far: serde_json::Value) {
        self.update(|v| {
            v.done = done;
            v.total = total.or(v.total);
            v.result = Some(so_far);
        });
    }

    /// Ends the job with what it did (a cancelled job stays cancelled).
    pub fn finish(&self, result: serde_json::Value) {
        self.update(|v| {
            if matches!(v.state, Stage::Running) {
                v.seconds = self.started.elapsed().as_secs_f64();
                v.state = Stage::Done;
                v.result = Some(result);
            }
        });
    }

    /// Ends the job with an error (a cancelled job stays cancelled).
    pub fn fail(&self, error: impl Into<String>) {
        self.update(|v| {
            if matches!(v.state, Stage::Running) {
                v.seconds = self.started.elapsed().as_secs_f64();
                v.state = Stage::Failed;
                v.error = Some(error.into());
            }
        });
    }

    /// Cancels a running job: it is `cancelled` from now on, and its thread, which asks
    /// [`Job::is_cancelled`], stops. A job that has ended is left as it is. Only jobs whose
    /// thread asks may be cancelled (reviews).
    pub fn cancel(&self) {
        self.update(|v| {
            if matches!(v.state, Stage::Running) {
                v.seconds = self.started.elapsed().as_secs_f64();
                v.state = Stage::Cancelled;
                self.cancelled.store(true, Ordering::SeqCst);
            }
        });
    }

    /// Whether the job was cancelled.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// The job as it stands.
    #[must_use]
    pub fn view(&self) -> JobView {
        let mut v = self.view.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if matches!(v.state, Stage::Running) {
            v.seconds = self.started.elapsed().as_secs_f64();
        }
        v
    }

    fn running(&self) -> bool {
        matches!(
            self.view.lock().unwrap_or_else(|e| e.into_inner()).state,
            Stage::Running
        )
    }
}

/// The server's jobs, newest last.
#[derive(Default)]
pub struct Jobs {
    list: Mutex<VecDeque<Arc<Job>>>,
}

impl Jobs {
    /// Files a new running job and returns it, or `None` when [`MAX_RUNNING`] jobs are running.
    pub fn add(
        &self,
        id: String,
        kind: &'static str,
        subject: String,
        unit: &'static str,
    ) -> Option<Arc<Job>> {
        let job = Arc::new(Job {
            started: Instant::now(),
            view: Mutex::new(JobView {
                id,
                kind,
                subject,
                state: Stage::Running,
                done: 0,
                total: None,
                unit,
                seconds: 0.0,
                result: None,
                error: None,
            }),
            cancelled: AtomicBool::new(false),
        });
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        if list.iter().filter(|j| j.running()).count() >= MAX_RUNNING {
            return None;
        }
        forget_to_fit(&mut list);
        list.push_back(Arc::clone(&job));
        Some(job)
    }

    /// Files a job that has ended already with `result` after `seconds` of work (a review
    /// answered from the store of finished reviews, `crate::review_store`). It runs nothing,
    /// so it is never refused; it counts among the [`KEPT`] jobs remembered.
    pub fn add_done(&self, view: JobView) -> Arc<Job> {
        let job = Arc::new(Job {
            started: Instant::now(),
            view: Mutex::new(JobView {
                state: Stage::Done,
                ..view
            }),
            cancelled: AtomicBool::new(false),
        });
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        forget_to_fit(&mut list);
        list.push_back(Arc::clone(&job));
        job
    }

    /// The job with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<Arc<Job>> {
        self.list
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|j| j.view.lock().unwrap_or_else(|e| e.into_inner()).id == id)
            .map(Arc::clone)
    }
}

/// Forgets the oldest ended jobs until one more fits in [`KEPT`] (running ones stay).
fn forget_to_fit(list: &mut VecDeque<Arc<Job>>) {
    while list.len() >= KEPT {
        match list.iter().position(|j| !j.running()) {
            Some(i) => {
                list.remove(i);
            }
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_jobs_are_bounded_and_finished_ones_forgotten_first() {
        let jobs = Jobs::default();
        let running: Vec<Arc<Job>> = (0..MAX_RUNNING)
            .map(|i| {
                jobs.add(format!("r{i}"), "import", "f".into(), "games")
                    .unwrap()
            })
            .collect();
        assert!(
            jobs.add("one more".into(), "import", "f".into(), "games")
                .is_none()
        );
        running[0].finish(serde_json::json!({}));
        let next = jobs
            .add("next".into(), "book", "b".into(), "games")
            .unwrap();
        assert!(matches!(
            jobs.get("next").unwrap().view().state,
            Stage::Running
        ));
        next.fail("no");
        assert_eq!(
            jobs.get("next").unwrap().view().error.as_deref(),
            Some("no")
        );
        // Past KEPT, the finished ones go first; the running ones stay.
        for r in &running[1..] {
            r.finish(serde_json::json!({}));
        }
        for i in 0..KEPT {
            let j = jobs
                .add(format!("k{i}"), "import", "f".into(), "games")
                .unwrap();
            j.finish(serde_json::json!({}));
        }
        assert!(jobs.get("r0").is_none());
        assert!(jobs.get(&format!("k{}", KEPT - 1)).is_some());
    }

    #[test]
    fn a_running_job_publishes_its_work_and_a_cancelled_one_stays_cancelled() {
        let jobs = Jobs::default();
        let job = jobs
            .add("r".into(), "review", "g".into(), "positions")
            .unwrap();
        job.report(3, Some(9), serde_json::json!({"moves": 2}));
        let v = job.view();
        assert_eq!((v.done, v.total), (3, Some(9)));
        assert_eq!(v.result, Some(serde_json::json!({"moves": 2})));
        assert!(!job.is_cancelled());
        job.cancel();
        assert!(job.is_cancelled());
        // The thread's last word changes nothing, and a cancelled job does not count as running.
        job.finish(serde_json::json!({}));
        job.fail("late");
        let v = job.view();
        assert!(matches!(v.state, Stage::Cancelled));
        assert_eq!(
            (v.result, v.error),
            (Some(serde_json::json!({"moves": 2})), None)
        );
        assert!(!job.running());
        // An ended job is not cancelled after the fact.
        let done = jobs
            .add("d".into(), "review", "g".into(), "positions")
            .unwrap();
        done.finish(serde_json::json!({}));
        done.cancel();
        assert!(!done.is_cancelled() && matches!(done.view().state, Stage::Done));
    }
}
