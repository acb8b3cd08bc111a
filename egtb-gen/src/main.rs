//! `egtb-gen`: builds Xiangqi endgame tablebases and inspects, probes and verifies them.
//!
//! The commands live here (argument parsing, progress bars, text and JSON output, exit codes);
//! the work is the `egtb_gen` library's, which returns typed errors.

mod cli;
mod gen_command;
mod tools;
mod upgrade;

fn main() -> std::process::ExitCode {
    return_freed_memory();
    cli::main()
}

/// glibc serves allocations below its mmap threshold from its heaps and keeps them when they
/// are freed, and the threshold grows (up to 32 MiB) each time a larger block is freed; a set's
/// tables then stack on the earlier tables' freed arrays (the `KNPKAABB` set peaked at 512 MB
/// where its largest table alone takes 429 MB). A fixed 1 MiB threshold maps every large array
/// on its own, and freeing it gives it back (453 MB for the set).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_freed_memory() {
    // SAFETY: `mallopt` only sets an allocator parameter; it is called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Other allocators give large blocks back on their own.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_freed_memory() {}
