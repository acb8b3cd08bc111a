//! Fixed-length tables on the heap, for the search's per-ply and history tables.

/// A boxed array of `N` values made by `f`, built on the heap (a move buffer per ply would be
/// too large for a thread's stack).
pub(crate) fn boxed_array<T, const N: usize>(f: impl FnMut(usize) -> T) -> Box<[T; N]> {
    let all: Box<[T]> = (0..N).map(f).collect();
    all.try_into()
        .unwrap_or_else(|_| unreachable!("the iterator yields exactly N values"))
}
