using System;

namespace Fbe
{
    /// <summary>
    /// Sends messages as frames (docs/format.md 7.3): <see cref="Send{T}"/> appends the message's root (versioned, or
    /// final with <c>final</c>) to the sender's buffer and offers all buffered bytes to the transport, which says how
    /// many it took; those leave the front of the buffer and the rest waits for the next Send or Flush. The message is
    /// written into a reused Writer: sending allocates nothing once the buffers are warm.
    /// </summary>
    public sealed class Sender
    {
        private readonly Writer _writer = new Writer();
        private byte[] _buf = new byte[256];
        private int _size;

        /// <summary>A sender of versioned frames, or of final ones with <paramref name="final"/>, to
        /// <paramref name="transport"/> (the bytes, their offset and count; returns how many it took).</summary>
        public Sender(bool final, Func<byte[], int, int, int> transport)
        {
            Final = final;
            Transport = transport;
        }

        public bool Final { get; }
        public Func<byte[], int, int, int> Transport { get; }

        /// <summary>The bytes waiting for the transport.</summary>
        public int Pending { get { return _size; } }

        /// <summary>Sends <paramref name="value"/> with its model; returns the frame's size. An EncodeException leaves
        /// nothing queued.</summary>
        public int Send<T>(StructModel<T> model, T value) where T : class
        {
            if (Final)
                model.WriteFinal(_writer, value);
            else
                model.WriteFbe(_writer, value);
            int n = _writer.Size;
            if (_size + n > _buf.Length)
                Array.Resize(ref _buf, Math.Max(_size + n, _buf.Length * 2));
            Buffer.BlockCopy(_writer.Buffer, 0, _buf, _size, n);
            _size += n;
            Flush();
            return n;
        }

        /// <summary>Offers the buffered bytes to the transport again.</summary>
        public void Flush()
        {
            if (_size == 0)
                return;
            int taken = Math.Max(0, Math.Min(_size, Transport(_buf, 0, _size)));
            Buffer.BlockCopy(_buf, taken, _buf, 0, _size - taken);
            _size -= taken;
        }
    }
}
