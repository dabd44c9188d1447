using System;
using System.Collections.Generic;
using System.IO;

namespace Fbe
{
    /// <summary>What a <see cref="Receiver"/> reported (<see cref="Receiver.LastError"/>).</summary>
    public enum FrameError
    {
        None,
        /// <summary>The other end's model notice: the end of the stream.</summary>
        ModelNotice,
        /// <summary>A size below the smallest frame: the end of the stream.</summary>
        TooSmall,
        /// <summary>A size above MaxFrameSize: the frame is skipped.</summary>
        TooLarge,
        /// <summary>A versioned frame whose body offset is outside it.</summary>
        BadHeader,
        /// <summary>A type id no registered message has.</summary>
        UnknownType,
        /// <summary>A body its message's reader refused.</summary>
        Undecodable,
    }

    /// <summary>
    /// Splits a protocol byte stream into frames and dispatches each (docs/format.md 7.4, docs/limits.md 6): the stream
    /// comes in chunks of any size; a frame is buffered as its bytes arrive (its declared size is never allocated in
    /// advance), verified by the reader of its message and handed to <see cref="Message"/>. A frame above
    /// MaxFrameSize is reported and its bytes skipped as they arrive; a frame that does not decode, or whose type id no
    /// registered message has, is reported and skipped; a size below the smallest frame (16 bytes versioned, 8 final)
    /// is reported and the rest of the stream dropped until Reset. The sizes 1 and 2 are the model notice of the other
    /// end (it reads versioned or final frames and refused ours): reported as the end of the stream.
    /// </summary>
    public sealed class Receiver
    {
        private readonly Dictionary<uint, KeyValuePair<string, Func<byte[], int, Limits, object>>> _messages =
            new Dictionary<uint, KeyValuePair<string, Func<byte[], int, Limits, object>>>();
        private readonly byte[] _header = new byte[4];
        private int _headerSize;
        private MemoryStream _frame;
        private long _frameSize, _skip;
        private bool _stopped;

        /// <summary>A receiver of versioned frames, or of final ones with <paramref name="final"/>.</summary>
        public Receiver(bool final, Limits limits)
        {
            Final = final;
            Limits = limits ?? Limits.Default;
        }

        public bool Final { get; }
        public Limits Limits { get; }

        /// <summary>Whether the stream ended (a model notice, or a size below the smallest frame): what follows is
        /// dropped until <see cref="Reset"/>. True already when <see cref="Error"/> reports why.</summary>
        public bool Stopped { get { return _stopped; } }

        /// <summary>Called with the message's qualified name and its value for every frame read.</summary>
        public Action<string, object> Message { get; set; }

        /// <summary>Called with the reason of every frame reported and skipped, and of the end of a stream.</summary>
        public Action<string> Error { get; set; }

        /// <summary>Registers the message of type id <paramref name="typeId"/> and its reader (its FromFbe or FromFinal).</summary>
        public void Register(uint typeId, string name, Func<byte[], int, Limits, object> read)
        {
            if (!_messages.ContainsKey(typeId))
                _messages[typeId] = new KeyValuePair<string, Func<byte[], int, Limits, object>>(name, read);
        }

        /// <summary>Forgets a partial frame and a stopped stream.</summary>
        public void Reset()
        {
            _headerSize = 0;
            _frame = null;
            _skip = 0;
            _stopped = false;
        }

        /// <summary>What the last report of <see cref="Error"/> was (set before the call).</summary>
        public FrameError LastError { get; private set; }

        /// <summary>The bytes of a frame begun and not yet whole (its size's bytes included).</summary>
        public int Pending { get { return _headerSize + (_frame == null ? 0 : (int)_frame.Length); } }

        /// <summary>Drops the rest of the stream until <see cref="Reset"/>, the rest of the chunk being received
        /// included (a server ending a connection from <see cref="Error"/> or <see cref="Message"/>).</summary>
        public void Stop()
        {
            _stopped = true;
        }

        private void Report(FrameError kind, string reason)
        {
            LastError = kind;
            Error?.Invoke(reason);
        }

        /// <summary>Takes the next <paramref name="count"/> bytes of the stream.</summary>
        public void Receive(byte[] data, int offset, int count)
        {
            int end = offset + count;
            while (offset < end && !_stopped)
            {
                if (_skip > 0)
                {
                    int n = (int)Math.Min(_skip, end - offset);
                    _skip -= n;
                    offset += n;
                    continue;
                }
                if (_frame == null)
                {
                    while (_headerSize < 4 && offset < end)
                        _header[_headerSize++] = data[offset++];
                    if (_headerSize < 4)
                        return;
                    _headerSize = 0;
                    Start(Reader.GetUInt32(_header, 0));
                    continue;
                }
                int take = (int)Math.Min(_frameSize - _frame.Length, end - offset);
                _frame.Write(data, offset, take);
                offset += take;
                if (_frame.Length == _frameSize)
                {
                    byte[] frame = _frame.ToArray();
                    _frame = null;
                    Dispatch(frame);
                }
            }
        }

        private void Start(long size)
        {
            long min = Final ? 8 : 16;
            if (size == 1 || size == 2)
            {
                bool theirsFinal = size == 2;
                string ours = Final ? "final" : "versioned";
                _stopped = true;
                Report(FrameError.ModelNotice, theirsFinal == Final
                    ? "the other end (reading " + ours + " frames too) refused a frame of ours"
                    : "the other end reads " + (theirsFinal ? "final" : "versioned") + " frames and refused ours: this end sends "
                      + ours + " frames (start both ends with the same model)");
                return;
            }
            if (size < min)
            {
                _stopped = true;
                Report(FrameError.TooSmall, "frame size " + size + " below the smallest frame of " + min + " bytes: the rest of the stream is dropped");
                return;
            }
            if (size > Limits.MaxFrameSize)
            {
                Report(FrameError.TooLarge, "frame of " + size + " bytes above the largest of " + Limits.MaxFrameSize + " (skipped)");
                _skip = size - 4;
                return;
            }
            _frameSize = size;
            _frame = new MemoryStream();
            _frame.Write(_header, 0, 4);
        }

        private void Dispatch(byte[] frame)
        {
            uint typeId;
            if (Final)
                typeId = Reader.GetUInt32(frame, 4);
            else
            {
                long body = Reader.GetUInt32(frame, 4);
                if (body < 8 || body + 8 > frame.Length)
                {
                    Report(FrameError.BadHeader, "bad frame header: the body offset " + body + " is outside the frame of " + frame.Length + " bytes");
                    return;
                }
                typeId = Reader.GetUInt32(frame, (int)body + 4);
            }
            KeyValuePair<string, Func<byte[], int, Limits, object>> message;
            if (!_messages.TryGetValue(typeId, out message))
            {
                Report(FrameError.UnknownType, "no message has type id " + typeId + " (frame of " + frame.Length + " bytes skipped)");
                return;
            }
            object value;
            try
            {
                value = message.Value(frame, frame.Length, Limits);
            }
            catch (DecodeException e)
            {
                Report(FrameError.Undecodable, e.Message);
                return;
            }
            Message?.Invoke(message.Key, value);
        }
    }
}
