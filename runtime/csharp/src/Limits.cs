namespace Fbe
{
    /// <summary>The limits of one reader (docs/limits.md): the same numbers in every language.</summary>
    public sealed class Limits
    {
        /// <summary>Deepest struct nesting a reader accepts and a writer writes (the root is level 1).</summary>
        public const int DefaultMaxDepth = 128;
        /// <summary>A decode may materialize this many bytes per input byte...</summary>
        public const long DefaultBudgetFactor = 8;
        /// <summary>... plus this many.</summary>
        public const long DefaultBudgetSlack = 4096;
        /// <summary>The largest protocol frame a Receiver accepts (64 MiB).</summary>
        public const long DefaultMaxFrameSize = 64L << 20;

        /// <summary>The limits of docs/limits.md.</summary>
        public static readonly Limits Default = new Limits();

        /// <summary>Deepest struct nesting read (docs/limits.md 1).</summary>
        public int MaxDepth { get; set; } = DefaultMaxDepth;
        /// <summary>Bytes a decode may materialize per input byte (docs/limits.md 3).</summary>
        public long BudgetFactor { get; set; } = DefaultBudgetFactor;
        /// <summary>Bytes a decode may materialize beyond BudgetFactor per input byte.</summary>
        public long BudgetSlack { get; set; } = DefaultBudgetSlack;
        /// <summary>Largest frame a Receiver buffers (docs/limits.md 6).</summary>
        public long MaxFrameSize { get; set; } = DefaultMaxFrameSize;

        /// <summary>The decode budget of an input of <paramref name="inputSize"/> bytes (saturating).</summary>
        public long Budget(long inputSize)
        {
            if (BudgetFactor != 0 && inputSize > (long.MaxValue - BudgetSlack) / BudgetFactor)
                return long.MaxValue;
            return BudgetFactor * inputSize + BudgetSlack;
        }
    }
}
