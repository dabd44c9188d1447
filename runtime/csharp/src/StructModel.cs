using System;

namespace Fbe
{
    /// <summary>
    /// A generated struct's codecs in both models, with the roots every struct has (ToFbe, FromFbe, VerifyFbe,
    /// ToFinal, FromFinal, VerifyFinal). The generated code implements the six walks at the offsets and costs fbec
    /// decided; as a field, element or optional value the struct is a Codec of 4-byte slot whose element cost is 0 (it
    /// is charged as a struct, docs/limits.md 3).
    /// </summary>
    public abstract class StructModel<T> : Codec<T> where T : class
    {
        protected StructModel(string name, uint typeId, int finalMin) : base(4, finalMin, 0)
        {
            Name = name;
            TypeId = typeId;
        }

        /// <summary>The qualified schema name (proto.Account), named by errors.</summary>
        public string Name { get; }

        /// <summary>The type id (docs/format.md 6).</summary>
        public uint TypeId { get; }

        /// <summary>Writes the versioned body, its offset stored in the slot at <paramref name="slot"/>.</summary>
        public abstract void WriteBody(Writer w, int bas, int slot, T v);
        /// <summary>Reads the versioned body the slot at <paramref name="slot"/> points to.</summary>
        public abstract T ReadBody(Reader r, int bas, int slot);
        /// <summary>Checks the versioned body as ReadBody reads it, without making the value.</summary>
        public abstract void VerifyBody(Reader r, int bas, int slot);
        /// <summary>Appends the fields (final model).</summary>
        public abstract void WriteFields(Writer w, T v);
        /// <summary>Reads the fields at the reader's cursor (final model).</summary>
        public abstract T ReadFields(Reader r);
        /// <summary>Checks the fields at the cursor as ReadFields reads them.</summary>
        public abstract void VerifyFields(Reader r);

        public override void Put(Writer w, int bas, int slot, T v)
        {
            if (v == null)
                throw Codecs.Null();
            WriteBody(w, bas, slot, v);
        }

        public override T Get(Reader r, int bas, int slot) { return ReadBody(r, bas, slot); }
        public override void Check(Reader r, int bas, int slot) { VerifyBody(r, bas, slot); }

        public override void Append(Writer w, T v)
        {
            if (v == null)
                throw Codecs.Null();
            WriteFields(w, v);
        }

        public override T Take(Reader r) { return ReadFields(r); }
        public override void CheckFinal(Reader r) { VerifyFields(r); }

        /// <summary>Writes the value as a JSON object (fbec --csharp --json generates it).</summary>
        public override void Json(JsonBuilder j, T v)
        {
            throw new NotSupportedException(Name + ": generated without --json");
        }

        /// <summary>Reads the value from a JSON object (fbec --csharp --json generates it).</summary>
        public override T FromJson(JsonSource r)
        {
            throw new NotSupportedException(Name + ": generated without --json");
        }

        /// <summary>Reads a value from the JSON text <paramref name="utf8"/> (its first <paramref name="length"/> bytes)
        /// under <paramref name="limits"/> (docs/limits.md 7).</summary>
        public T FromJson(byte[] utf8, int length, Limits limits)
        {
            try { return JsonSource.Read(utf8, length, limits, FromJson); }
            catch (DecodeException e) { throw e.Within(Name); }
        }

        /// <summary>The value as JSON (docs/format.md 8), the original's bytes.</summary>
        public string ToJson(T v)
        {
            var j = new JsonBuilder();
            WriteJson(j, v);
            return j.ToString();
        }

        /// <summary>Writes the value as JSON into <paramref name="j"/> (reset first).</summary>
        public void WriteJson(JsonBuilder j, T v)
        {
            j.Reset();
            if (v == null)
                throw Codecs.Null().Within(Name);
            try { Json(j, v); }
            catch (EncodeException e) { throw e.Within(Name); }
        }

        /// <summary>Writes <paramref name="v"/> as a versioned root into <paramref name="w"/> (reset first): with a
        /// reused writer, the root is <c>w.Buffer[0..w.Size)</c>.</summary>
        public void WriteFbe(Writer w, T v)
        {
            w.BeginVersioned();
            try { Put(w, 0, 4, v); }
            catch (EncodeException e) { throw e.Within(Name); }
            w.EndVersioned();
        }

        /// <summary>The value as a versioned root (docs/format.md 3.2).</summary>
        public byte[] ToFbe(T v)
        {
            var w = new Writer();
            WriteFbe(w, v);
            return w.ToArray();
        }

        /// <summary>Reads a value from a versioned root of the first <paramref name="length"/> bytes of
        /// <paramref name="data"/> under <paramref name="limits"/>.</summary>
        public T FromFbe(byte[] data, int length, Limits limits)
        {
            try
            {
                Reader r = Reader.Versioned(data, length, limits);
                return ReadBody(r, 0, 4);
            }
            catch (DecodeException e) { throw e.Within(Name); }
        }

        /// <summary>Checks a versioned root: returns exactly when FromFbe succeeds, throws its error otherwise.</summary>
        public void VerifyFbe(byte[] data, int length, Limits limits)
        {
            try
            {
                Reader r = Reader.Versioned(data, length, limits);
                VerifyBody(r, 0, 4);
            }
            catch (DecodeException e) { throw e.Within(Name); }
        }

        /// <summary>Writes <paramref name="v"/> as a final root into <paramref name="w"/> (reset first).</summary>
        public void WriteFinal(Writer w, T v)
        {
            w.BeginFinal();
            try { Append(w, v); }
            catch (EncodeException e) { throw e.Within(Name); }
            w.EndFinal(TypeId);
        }

        /// <summary>The value as a final root (docs/format.md 4.1).</summary>
        public byte[] ToFinal(T v)
        {
            var w = new Writer();
            WriteFinal(w, v);
            return w.ToArray();
        }

        /// <summary>Reads a value from a final root under <paramref name="limits"/>.</summary>
        public T FromFinal(byte[] data, int length, Limits limits)
        {
            try
            {
                Reader r = Reader.FinalRoot(data, length, TypeId, limits);
                T v = ReadFields(r);
                r.EndFinal();
                return v;
            }
            catch (DecodeException e) { throw e.Within(Name); }
        }

        /// <summary>Checks a final root: returns exactly when FromFinal succeeds, throws its error otherwise.</summary>
        public void VerifyFinal(byte[] data, int length, Limits limits)
        {
            try
            {
                Reader r = Reader.FinalRoot(data, length, TypeId, limits);
                VerifyFields(r);
                r.EndFinal();
            }
            catch (DecodeException e) { throw e.Within(Name); }
        }
    }
}
