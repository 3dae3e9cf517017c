//! The one driver of the server's background loops (market index per
//! chain, webhook worker, usage flush, rate sync, key sync, pruning): it
//! starts each under a name, reports which run (the
//! `riskintel_background_task_running{task}` gauge, and a warning when one
//! ends on its own), and stops them in two stages on close — the readers
//! before requests drain, the writers after, so what the last requests
//! counted is written before the database closes.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

/// When a loop is stopped as the server closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Before the listener stops: loops that read the chain or the
    /// database for others (the market index, key sync).
    BeforeRequests,
    /// After the last request is answered: loops that write what requests
    /// left (usage, rate counts, webhook deliveries, pruning).
    AfterRequests,
}

/// How a loop is told to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It watches its stop signal and finishes the round under way, given
    /// this long.
    Signalled(Duration),
    /// It holds nothing worth finishing: aborted.
    Aborted,
}

struct Task {
    name: &'static str,
    stage: Stage,
    ending: Ending,
    handle: JoinHandle<()>,
}

/// The running loops and their stop signals.
pub struct Tasks {
    stops: [watch::Sender<bool>; 2],
    running: Vec<Task>,
    log: slog::Logger,
}

impl Tasks {
    /// No loops yet.
    pub fn new(log: slog::Logger) -> Tasks {
        Tasks {
            stops: [watch::channel(false).0, watch::channel(false).0],
            running: Vec::new(),
            log,
        }
    }

    fn stop_of(&self, stage: Stage) -> &watch::Sender<bool> {
        &self.stops[stage as usize]
    }

    /// Start `work` (given its stage's stop signal) as `name`.
    pub fn spawn<F, Fut>(&mut self, name: &'static str, stage: Stage, ending: Ending, work: F)
    where
        F: FnOnce(watch::Receiver<bool>) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let stop = self.stop_of(stage).subscribe();
        let stopping = self.stop_of(stage).subscribe();
        let run = work(stop);
        let log = self.log.clone();
        crate::telemetry::background_task(name, true);
        let handle = tokio::spawn(async move {
            run.await;
            crate::telemetry::background_task(name, false);
            if !*stopping.borrow() {
                slog::warn!(log, "a background task ended before the server closed"; "task" => name);
            }
        });
        self.running.push(Task {
            name,
            stage,
            ending,
            handle,
        });
    }

    /// Run `work` every `every` as `name` until its stage stops (a run
    /// under way finishes first); a failure is logged with `failed` once,
    /// until a run works again.
    pub fn every<F, Fut, E>(
        &mut self,
        name: &'static str,
        stage: Stage,
        every: Duration,
        failed: &'static str,
        mut work: F,
    ) where
        F: FnMut() -> Fut + Send + 'static,
        Fut: Future<Output = Result<(), E>> + Send,
        E: std::fmt::Display,
    {
        let log = self.log.new(slog::o!("task" => name));
        let patience = Ending::Signalled(Duration::from_secs(30));
        self.spawn(name, stage, patience, move |mut stop| async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut failing = false;
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = stop.changed() => return,
                }
                match work().await {
                    Ok(()) => failing = false,
                    Err(error) if !failing => {
                        failing = true;
                        slog::warn!(log, "{}", failed; "error" => %error);
                    }
                    Err(_) => {}
                }
            }
        });
    }

    /// The names of the loops started, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.running.iter().map(|t| t.name).collect()
    }

    /// Stop the loops of `stage` and wait for them (each within its patience).
    pub async fn stop(&mut self, stage: Stage) {
        let _ = self.stop_of(stage).send(true);
        let (stopping, rest): (Vec<Task>, Vec<Task>) =
            self.running.drain(..).partition(|t| t.stage == stage);
        self.running = rest;
        for task in stopping {
            match task.ending {
                Ending::Aborted => task.handle.abort(),
                Ending::Signalled(patience) => {
                    let abort = task.handle.abort_handle();
                    if tokio::time::timeout(patience, task.handle).await.is_err() {
                        slog::warn!(self.log, "a background task did not stop in time"; "task" => task.name);
                        abort.abort();
                    }
                }
            }
            crate::telemetry::background_task(task.name, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    #[tokio::test]
    async fn loops_stop_by_stage_and_finish_their_round() {
        let mut tasks = Tasks::new(slog::Logger::root(slog::Discard, slog::o!()));
        let runs = Arc::new(AtomicU32::new(0));
        let counted = runs.clone();
        tasks.every(
            "counter",
            Stage::AfterRequests,
            Duration::from_millis(5),
            "failed",
            move || {
                let counted = counted.clone();
                async move {
                    counted.fetch_add(1, Ordering::SeqCst);
                    Ok::<(), String>(())
                }
            },
        );
        tasks.spawn("forever", Stage::BeforeRequests, Ending::Aborted, |_| {
            std::future::pending()
        });
        assert_eq!(tasks.names(), ["counter", "forever"]);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while runs.load(Ordering::SeqCst) == 0 && tokio::time::Instant::now() < deadline {
            tokio::task::yield_now().await;
        }
        tasks.stop(Stage::BeforeRequests).await;
        assert_eq!(tasks.names(), ["counter"], "only the first stage stopped");
        let before = runs.load(Ordering::SeqCst);
        assert!(before > 0);
        tasks.stop(Stage::AfterRequests).await;
        // `stop` waited for the loop itself to end: no run can follow.
        assert!(tasks.names().is_empty());
    }
}
