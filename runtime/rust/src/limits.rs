//! The limits of every reader (docs/limits.md): the same numbers in every language.

/// Deepest struct nesting a reader accepts and a writer writes (the root is level 1).
pub const MAX_DEPTH: usize = 128;
/// A decode may materialize this many bytes per input byte...
pub const BUDGET_FACTOR: usize = 8;
/// ... plus this many.
pub const BUDGET_SLACK: usize = 4096;
/// The largest protocol frame a Receiver accepts (64 MiB).
pub const MAX_FRAME_SIZE: usize = 64 << 20;

/// The options of one reader (docs/limits.md 5). [`Limits::default`] gives
/// the numbers above; raise them for a trusted peer, lower them for a
/// constrained one.
///
/// ```
/// let lim = fbe::Limits { max_depth: 16, ..fbe::Limits::default() };
/// assert_eq!(lim.budget(100), 8 * 100 + 4096);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Deepest struct nesting read (docs/limits.md 1).
    pub max_depth: usize,
    /// Bytes a decode may materialize per input byte (docs/limits.md 3).
    pub budget_factor: usize,
    /// Bytes a decode may materialize beyond `budget_factor` per input byte.
    pub budget_slack: usize,
    /// Largest frame a Receiver buffers (docs/limits.md 6).
    pub max_frame_size: usize,
}

impl Limits {
    /// The limits of docs/limits.md.
    pub const DEFAULT: Limits = Limits {
        max_depth: MAX_DEPTH,
        budget_factor: BUDGET_FACTOR,
        budget_slack: BUDGET_SLACK,
        max_frame_size: MAX_FRAME_SIZE,
    };

    /// The decode budget in bytes of an input of `input_size` bytes:
    /// `budget_factor * input_size + budget_slack` (saturating).
    #[inline]
    pub fn budget(&self, input_size: usize) -> usize {
        self.budget_factor.saturating_mul(input_size).saturating_add(self.budget_slack)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_numbers() {
        let d = Limits::default();
        assert_eq!((d.max_depth, d.budget_factor, d.budget_slack, d.max_frame_size), (128, 8, 4096, 67_108_864));
        assert_eq!(d.budget(12), 4192);
        assert_eq!(Limits { budget_factor: usize::MAX, ..d }.budget(2), usize::MAX);
    }
}
