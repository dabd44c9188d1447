using System;
using System.Collections.Generic;

namespace Fbe
{
    /// <summary>
    /// The codecs of a value a field, element, key or optional holds, in both models (docs/format.md 3.4 and 4.2):
    /// what the generated code calls for each field, so that it is one line per field. Errors carry no field name: the
    /// generated code of the struct holding the value puts it in front, collections the element's index.
    /// </summary>
    public abstract class Codec<T>
    {
        protected Codec(int slot, int finalMin, long cost)
        {
            Slot = slot;
            FinalMin = finalMin;
            Cost = cost;
        }

        /// <summary>The bytes of its versioned slot (docs/format.md 2.1).</summary>
        public int Slot { get; }
        /// <summary>The fewest bytes it takes in the final model: what bounds a count by the bytes left.</summary>
        public int FinalMin { get; }
        /// <summary>What a reader charges for it as an element of a collection (docs/limits.md 3; 0 for a struct,
        /// which is charged as a struct).</summary>
        public long Cost { get; }

        /// <summary>Writes the value into its slot at <paramref name="slot"/>, out-of-line data located from
        /// <paramref name="bas"/>.</summary>
        public abstract void Put(Writer w, int bas, int slot, T v);
        /// <summary>Reads the value of the slot at <paramref name="slot"/>, data located from <paramref name="bas"/>.</summary>
        public abstract T Get(Reader r, int bas, int slot);
        /// <summary>Appends the value (final model).</summary>
        public abstract void Append(Writer w, T v);
        /// <summary>Reads the value at the reader's cursor (final model).</summary>
        public abstract T Take(Reader r);

        /// <summary>Writes the value in the text form (docs/format.md 9).</summary>
        public abstract void Text(TextBuilder t, T v);

        /// <summary>Writes the value as JSON (docs/format.md 8).</summary>
        public abstract void Json(JsonBuilder j, T v);

        /// <summary>Reads the value from JSON: the reader is on its first token and is left on its last.</summary>
        public abstract T FromJson(JsonSource r);

        /// <summary>Reads the value of a map's member name (HasKeyText).</summary>
        public virtual T FromJsonKey(JsonSource r, string key) { throw new InvalidOperationException("no JSON key text"); }

        /// <summary>Reads the value from JSON; an error names <paramref name="field"/>.</summary>
        public T JsonField(JsonSource r, string field)
        {
            try { return FromJson(r); }
            catch (DecodeException e) { throw e.InField(field); }
        }

        /// <summary>Whether a map's keys of this type are member names (else the map is an array of [key, value]).</summary>
        public virtual bool HasKeyText { get { return false; } }

        /// <summary>Writes the value as a map's member name and its colon (HasKeyText).</summary>
        public virtual void JsonKey(JsonBuilder j, T v) { throw new InvalidOperationException("no JSON key text"); }

        /// <summary>Checks the value of the slot as Get reads it, with the same verdict and error.</summary>
        public virtual void Check(Reader r, int bas, int slot) { Get(r, bas, slot); }

        /// <summary>Checks the value at the cursor as Take reads it.</summary>
        public virtual void CheckFinal(Reader r) { Take(r); }

        /// <summary>Writes <paramref name="v"/> into its slot; an error names <paramref name="field"/>.</summary>
        public void Field(Writer w, int bas, int slot, T v, string field)
        {
            try { Put(w, bas, slot, v); }
            catch (EncodeException e) { throw e.InField(field); }
        }

        /// <summary>Writes <paramref name="v"/> as JSON; an error names <paramref name="field"/>.</summary>
        public void JsonField(JsonBuilder j, T v, string field)
        {
            try { Json(j, v); }
            catch (EncodeException e) { throw e.InField(field); }
        }

        /// <summary>Appends <paramref name="v"/>; an error names <paramref name="field"/>.</summary>
        public void FinalField(Writer w, T v, string field)
        {
            try { Append(w, v); }
            catch (EncodeException e) { throw e.InField(field); }
        }

        /// <summary>Reads the value of the slot; an error names <paramref name="field"/>.</summary>
        public T Field(Reader r, int bas, int slot, string field)
        {
            try { return Get(r, bas, slot); }
            catch (DecodeException e) { throw e.InField(field); }
        }

        /// <summary>Reads the value at the cursor; an error names <paramref name="field"/>.</summary>
        public T FinalField(Reader r, string field)
        {
            try { return Take(r); }
            catch (DecodeException e) { throw e.InField(field); }
        }

        /// <summary>Checks the value of the slot as Field reads it.</summary>
        public void CheckField(Reader r, int bas, int slot, string field)
        {
            try { Check(r, bas, slot); }
            catch (DecodeException e) { throw e.InField(field); }
        }

        /// <summary>Checks the value at the cursor as FinalField reads it.</summary>
        public void CheckFinalField(Reader r, string field)
        {
            try { CheckFinal(r); }
            catch (DecodeException e) { throw e.InField(field); }
        }
    }

    /// <summary>A value of fixed size read without a check of its own: a member of a final-model run of fixed
    /// fields (the plan's Run), read at its offset in the run.</summary>
    public abstract class FixedCodec<T> : Codec<T>
    {
        protected FixedCodec(int size) : base(size, size, size) { }

        /// <summary>The value at <paramref name="at"/> of <paramref name="b"/>.</summary>
        public abstract T At(byte[] b, int at);
        /// <summary>Stores the value at <paramref name="at"/>, every one of its Slot bytes (Append does not clear them).</summary>
        public abstract void Store(Writer w, int at, T v);

        public override T Get(Reader r, int bas, int slot) { return At(r.Data, slot); }
        public override T Take(Reader r) { return At(r.Data, r.Fixed(Slot, "")); }
        public override void Put(Writer w, int bas, int slot, T v) { Store(w, slot, v); }
        public override void Append(Writer w, T v) { Store(w, w.Extend(Slot), v); }
        public override void Check(Reader r, int bas, int slot) { }
        public override void CheckFinal(Reader r) { r.Fixed(Slot, ""); }
    }

    /// <summary>A scalar by two functions: its reader and its writer.</summary>
    public sealed class ScalarCodec<T> : FixedCodec<T>
    {
        private readonly Func<byte[], int, T> _get;
        private readonly Action<Writer, int, T> _put;
        private readonly Action<TextBuilder, T> _text;
        private readonly Action<JsonBuilder, T> _json, _key;
        private readonly Func<JsonSource, T> _fromJson;
        private readonly Func<JsonSource, string, T> _fromKey;

        public ScalarCodec(int size, Func<byte[], int, T> get, Action<Writer, int, T> put, Action<TextBuilder, T> text,
            Action<JsonBuilder, T> json, Action<JsonBuilder, T> key, Func<JsonSource, T> fromJson, Func<JsonSource, string, T> fromKey)
            : base(size)
        {
            _get = get;
            _put = put;
            _text = text;
            _json = json;
            _key = key;
            _fromJson = fromJson;
            _fromKey = fromKey;
        }

        public override T FromJson(JsonSource r) { return _fromJson(r); }
        public override T FromJsonKey(JsonSource r, string key) { return _fromKey(r, key); }

        public override void Json(JsonBuilder j, T v) { _json(j, v); }
        public override bool HasKeyText { get { return true; } }
        public override void JsonKey(JsonBuilder j, T v) { _key(j, v); }

        public override T At(byte[] b, int at) { return _get(b, at); }
        public override void Store(Writer w, int at, T v) { _put(w, at, v); }
        public override void Text(TextBuilder t, T v) { _text(t, v); }
    }
}
