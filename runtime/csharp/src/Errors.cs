using System;

namespace Fbe
{
    /// <summary>What kind of problem a DecodeException or EncodeException reports.</summary>
    public enum ErrorKind
    {
        /// <summary>The bytes (or text) do not follow the format.</summary>
        Malformed,
        /// <summary>The decode materialized more than its budget (docs/limits.md 3).</summary>
        Budget,
        /// <summary>Structs nested deeper than MaxDepth (docs/limits.md 1).</summary>
        Depth,
        /// <summary>A set holding an element twice or a map holding a key twice (docs/limits.md 4).</summary>
        Duplicate,
        /// <summary>A size beyond what the format's 32 bits hold, or a value the format cannot hold (writers).</summary>
        Invalid,
    }

    /// <summary>What both errors share: the problem, the root type, the field path from it and the offset.</summary>
    public abstract class FbeException : Exception
    {
        protected FbeException(ErrorKind kind, string problem, string path, long offset)
            : base(problem)
        {
            Kind = kind;
            Problem = problem;
            Path = path ?? "";
            Offset = offset;
            TypeName = "";
        }

        /// <summary>The kind of problem.</summary>
        public ErrorKind Kind { get; }
        /// <summary>What is wrong, without the place.</summary>
        public string Problem { get; }
        /// <summary>The root type (proto.Account), when known.</summary>
        public string TypeName { get; private set; }
        /// <summary>The field path from the root type (orders[2].symbol), empty for the root itself.</summary>
        public string Path { get; private set; }
        /// <summary>The absolute byte offset in the root, or -1 when unknown.</summary>
        public long Offset { get; }

        /// <summary>The problem, then the type, the path and the offset:
        /// <c>string of 99 bytes beyond the end of the buffer (proto.Account.orders[2].symbol, offset 120)</c>.</summary>
        public override string Message
        {
            get
            {
                string place = TypeName.Length > 0 && Path.Length > 0 ? TypeName + "." + Path : TypeName + Path;
                if (place.Length == 0)
                    return Offset < 0 ? Problem : Problem + " (offset " + Offset + ")";
                return Offset < 0 ? Problem + " (" + place + ")" : Problem + " (" + place + ", offset " + Offset + ")";
            }
        }

        /// <summary>Puts an outer field name in front of a path: "orders[2]" + "price".</summary>
        public static string JoinPath(string outer, string inner)
        {
            if (inner.Length == 0)
                return outer;
            if (outer.Length == 0)
                return inner;
            return inner[0] == '[' ? outer + inner : outer + "." + inner;
        }

        internal void Prepend(string outer) { Path = JoinPath(outer, Path); }

        internal void Name(string typeName)
        {
            if (TypeName.Length == 0)
                TypeName = typeName;
        }
    }

    /// <summary>Why a buffer, a JSON text or a frame cannot be decoded (docs/limits.md 8).</summary>
    public sealed class DecodeException : FbeException
    {
        public DecodeException(string problem, string field, long offset)
            : base(ErrorKind.Malformed, problem, field, offset) { }

        public DecodeException(ErrorKind kind, string problem, string field, long offset)
            : base(kind, problem, field, offset) { }

        /// <summary>The error with <paramref name="field"/> in front of its path (the field holding what failed).</summary>
        public DecodeException InField(string field) { Prepend(field); return this; }

        /// <summary>The error with an element index in front of its path ([2]).</summary>
        public DecodeException InIndex(long index) { Prepend("[" + index + "]"); return this; }

        /// <summary>The error naming the root type, once.</summary>
        public DecodeException Within(string typeName) { Name(typeName); return this; }
    }

    /// <summary>Why a value cannot be written: structs nested too deep, a set holding an element twice,
    /// a fixed array of the wrong length... It names the root type and the field path (no offset).</summary>
    public sealed class EncodeException : FbeException
    {
        public EncodeException(ErrorKind kind, string problem, string field)
            : base(kind, problem, field, -1) { }

        /// <summary>The error with <paramref name="field"/> in front of its path.</summary>
        public EncodeException InField(string field) { Prepend(field); return this; }

        /// <summary>The error with an element index in front of its path ([2]).</summary>
        public EncodeException InIndex(long index) { Prepend("[" + index + "]"); return this; }

        /// <summary>The error naming the root type, once.</summary>
        public EncodeException Within(string typeName) { Name(typeName); return this; }
    }
}
