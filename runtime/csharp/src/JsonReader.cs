using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Numerics;
using System.Text;
using Newtonsoft.Json;

namespace Fbe
{
    /// <summary>
    /// The JSON reader (docs/format.md 8.3) under the rules of docs/limits.md 7, on Newtonsoft.Json's tokenizer:
    /// the document is checked first (valid UTF-8, no byte order mark, arrays and objects nested at most
    /// 3 x MaxDepth, no trailing comma, no leading zero), then read token by token, refusing what Newtonsoft
    /// accepts beyond JSON (comments, single quotes, unquoted names, NaN literals); numbers are read from their own
    /// text (-0 is negative zero in a double, 1.0 is no integer, a value out of its field's range is refused);
    /// strings keep a lone \udc80..\udcff escape as the byte it stands for and refuse any other lone surrogate;
    /// no object holds a member name twice; every value made is charged to the decode budget
    /// (8 x text + 4096) at the costs of docs/limits.md 3, and structs nest at most MaxDepth deep.
    /// </summary>
    public sealed class JsonSource
    {
        private readonly JsonTextReader _r;
        private readonly string _text;
        private readonly List<int> _lines;
        // the member names of the objects open, innermost last, and where each object's begin: a name is compared with
        // its object's while they are few, looked up in a set (one per depth, reused) beyond SmallObject
        private const int SmallObject = 8;
        private readonly List<string> _names = new List<string>();
        private readonly List<int> _objectStarts = new List<int>();
        private readonly List<HashSet<string>> _nameSets = new List<HashSet<string>>();
        private string _number;     // the text of the current number token
        private string _name;       // the current member name, as StringValue reads it
        private byte[] _uuid;       // the bytes of the uuid read last
        private readonly int _maxDepth;
        private long _budget;
        private int _depth;

        private JsonSource(string text, List<int> lines, long budget, int maxDepth)
        {
            _text = text;
            _lines = lines;
            _r = new JsonTextReader(new StringReader(text))
            {
                DateParseHandling = DateParseHandling.None,
                FloatParseHandling = FloatParseHandling.Double,
                MaxDepth = null,
            };
            _budget = budget;
            _maxDepth = maxDepth;
        }

        /// <summary>Reads the JSON document <paramref name="doc"/> (its first <paramref name="length"/> bytes) with
        /// <paramref name="read"/> under <paramref name="limits"/>: the document is checked, then read; nothing but
        /// white space may follow the value.</summary>
        public static T Read<T>(byte[] doc, int length, Limits limits, Func<JsonSource, T> read)
        {
            var lines = new List<int> { 0 };
            string text = Check(doc, length, limits.MaxDepth, lines);
            var r = new JsonSource(text, lines, limits.Budget(length), limits.MaxDepth);
            try
            {
                r.Next();
                T v = read(r);
                if (r.Advance())
                    throw new DecodeException("invalid JSON: more after the value", "", -1);
                return v;
            }
            catch (Exception e) when (e is JsonException || e is FormatException || e is OverflowException)
            {
                // Newtonsoft 5 throws a FormatException for a bad \u escape ("\u":1, found by the fuzzer)
                throw new DecodeException("invalid JSON: " + e.Message, "", -1);
            }
        }

        /// <summary>The document's text, once its bytes pass the checks made before parsing (docs/limits.md 7).</summary>
        public static string CheckDocument(byte[] doc, int length, int maxDepth)
        {
            return Check(doc, length, maxDepth, new List<int>());
        }

        /// <summary>CheckDocument, in the same pass adding to <paramref name="lines"/> where each line of the text begins as
        /// Newtonsoft counts them (\n, \r\n, \r), each from its line break's last character, as Newtonsoft counts a line's
        /// positions (a number after a line break was read from the wrong place).</summary>
        private static string Check(byte[] doc, int length, int maxDepth, List<int> lines)
        {
            if (length >= 3 && doc[0] == 0xEF && doc[1] == 0xBB && doc[2] == 0xBF)
                throw new DecodeException("invalid JSON: a byte order mark is not JSON", "", 0);
            int limit = 3 * maxDepth, depth = 0;
            int chars = 0;      // the characters of the text before doc[at]
            bool inString = false, escaped = false;
            for (int at = 0; at < length; at++, chars++)
            {
                byte c = doc[at];
                if (c >= 0x80)
                {
                    int n = Utf8.Sequence(doc, at, length);
                    if (n == 0)
                        throw new DecodeException("invalid JSON: not valid UTF-8", "", at);
                    at += n - 1;
                    chars += n == 4 ? 1 : 0;    // a surrogate pair
                    escaped = false;
                    continue;
                }
                if (c == '\n' || c == '\r' && (at + 1 == length || doc[at + 1] != '\n'))
                    lines.Add(chars);
                if (inString)
                {
                    if (c < 0x20)   // Newtonsoft reads them (and counts a \r as a line: found by the fuzzer)
                        throw new DecodeException("invalid JSON: a control character in a string", "", at);
                    if (escaped)
                        escaped = false;
                    else if (c == '\\')
                        escaped = true;
                    else if (c == '"')
                        inString = false;
                    continue;
                }
                switch (c)
                {
                    case (byte)'"':
                        inString = true;
                        break;
                    case (byte)'[':
                    case (byte)'{':
                        if (++depth > limit)
                            throw new DecodeException(ErrorKind.Depth, "invalid JSON: arrays and objects nested deeper than " + limit, "", at);
                        break;
                    case (byte)']':
                    case (byte)'}':
                        depth = Math.Max(0, depth - 1);
                        break;
                    case (byte)',':
                        int k = at + 1;
                        while (k < length && (doc[k] == ' ' || doc[k] == '\t' || doc[k] == '\n' || doc[k] == '\r'))
                            k++;
                        if (k < length && (doc[k] == ']' || doc[k] == '}'))
                            throw new DecodeException("invalid JSON: a comma before " + (char)doc[k], "", at);
                        break;
                }
            }
            // valid UTF-8 (checked above): one decoding, ASCII's when every byte was one character
            return chars == length ? Encoding.ASCII.GetString(doc, 0, length) : Encoding.UTF8.GetString(doc, 0, length);
        }

        /// <summary>The current token.</summary>
        public JsonToken Token { get { return _r.TokenType; } }

        private bool Advance()
        {
            if (!_r.Read())
                return false;
            switch (_r.TokenType)
            {
                case JsonToken.Comment:
                    throw Malformed("invalid JSON: comments are not JSON");
                case JsonToken.String:
                case JsonToken.PropertyName:
                    if (_r.QuoteChar != '"')
                        throw Malformed("invalid JSON: strings and member names are in double quotes");
                    break;
                case JsonToken.Float:
                case JsonToken.Integer:
                    _number = ReadNumberText();
                    if (!IsNumber(_number))
                        throw Malformed("invalid JSON: " + _number + " is no JSON number");
                    break;
                case JsonToken.StartObject:
                    _objectStarts.Add(_names.Count);
                    break;
                case JsonToken.EndObject:
                    int depth = _objectStarts.Count - 1, start = _objectStarts[depth];
                    if (_names.Count - start > SmallObject)
                        _nameSets[depth].Clear();
                    _names.RemoveRange(start, _names.Count - start);
                    _objectStarts.RemoveAt(depth);
                    break;
            }
            if (_r.TokenType == JsonToken.PropertyName)
            {
                _name = StringValue();
                if (!NewMember(_name))
                    throw Malformed("duplicate member \"" + Quote(_name) + "\"");
            }
            return true;
        }

        /// <summary>Adds a member name to the innermost object's: false when it has it already.</summary>
        private bool NewMember(string name)
        {
            int depth = _objectStarts.Count - 1, start = _objectStarts[depth], count = _names.Count - start;
            if (count < SmallObject)
            {
                for (int i = start; i < _names.Count; i++)
                    if (string.Equals(_names[i], name))
                        return false;
            }
            else
            {
                while (_nameSets.Count <= depth)
                    _nameSets.Add(new HashSet<string>(StringComparer.Ordinal));
                HashSet<string> set = _nameSets[depth];
                if (count == SmallObject)
                    for (int i = start; i < _names.Count; i++)
                        set.Add(_names[i]);
                if (!set.Add(name))
                    return false;
            }
            _names.Add(name);
            return true;
        }

        /// <summary>Moves to the next token (the end of the document is an error).</summary>
        public void Next()
        {
            if (!Advance())
                throw Malformed("invalid JSON: the document ends too early");
        }

        /// <summary>The end of the current token in the text.</summary>
        private int End() { return _lines[_r.LineNumber - 1] + _r.LinePosition; }

        /// <summary>The text of the current number token.</summary>
        private string NumberText() { return _number; }

        /// <summary>Whether <paramref name="t"/> is a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?</summary>
        internal static bool IsNumber(string t)
        {
            int i = 0, n = t.Length;
            if (i < n && t[i] == '-')
                i++;
            if (i < n && t[i] == '0')
                i++;
            else if (i < n && t[i] >= '1' && t[i] <= '9')
                while (i < n && t[i] >= '0' && t[i] <= '9')
                    i++;
            else
                return false;
            if (i < n && t[i] == '.')
            {
                int digits = ++i;
                while (i < n && t[i] >= '0' && t[i] <= '9')
                    i++;
                if (i == digits)
                    return false;
            }
            if (i < n && (t[i] == 'e' || t[i] == 'E'))
            {
                i++;
                if (i < n && (t[i] == '+' || t[i] == '-'))
                    i++;
                int digits = i;
                while (i < n && t[i] >= '0' && t[i] <= '9')
                    i++;
                if (i == digits)
                    return false;
            }
            return i == n;
        }

        private string ReadNumberText()
        {
            int end = End(), start = end;
            while (start > 0 && NumberChar(_text[start - 1]))
                start--;
            return _text.Substring(start, end - start);
        }

        private static bool NumberChar(char c)
        {
            return c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
        }

        /// <summary>The value of the current string or member name, as its bytes read (a lone \udc80..\udcff escape is
        /// that byte, any other lone surrogate escape refused; escapes of bytes that form UTF-8 are the characters).</summary>
        private string StringValue()
        {
            string s = (string)_r.Value;
            int k = 0;
            while (k < s.Length && s[k] < 0xD800)
                k++;
            if (k == s.Length)
                return s;       // no surrogate, no U+FFFD: the common case
            if (s.IndexOf('\uFFFD') >= 0)
                s = Unescape(RawString());      // Newtonsoft replaced a lone surrogate: read the escapes again
            bool bytes = false;
            for (int i = 0; i < s.Length; i++)
            {
                char c = s[i];
                if (char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]))
                    i++;
                else if (c >= 0xDC80 && c <= 0xDCFF)
                    bytes = true;
                else if (char.IsSurrogate(c))
                    throw Malformed("invalid JSON: the lone surrogate escape \\u" + ((int)c).ToString("x4") + " stands for no byte");
            }
            return bytes ? Utf8.Decode(Utf8.Bytes(s), 0, Utf8.Length(s)) : s;
        }

        /// <summary>The text between the quotes of the current string or member name.</summary>
        private string RawString()
        {
            int end = End() - 1;
            while (_text[end] != '"')
                end--;      // a member name's token ends after its colon
            int start = end - 1;
            while (true)
            {
                if (_text[start] == '"')
                {
                    int slashes = 0;
                    while (start - 1 - slashes >= 0 && _text[start - 1 - slashes] == '\\')
                        slashes++;
                    if (slashes % 2 == 0)
                        break;
                }
                start--;
            }
            return _text.Substring(start + 1, end - start - 1);
        }

        /// <summary>The characters of the text <paramref name="raw"/> between a JSON string's quotes, a lone surrogate
        /// escape kept as that surrogate (Newtonsoft reads it as U+FFFD).</summary>
        public static string Unescape(string raw)
        {
            var sb = new StringBuilder(raw.Length);
            for (int i = 0; i < raw.Length; i++)
            {
                char c = raw[i];
                if (c != '\\')
                {
                    sb.Append(c);
                    continue;
                }
                char e = raw[++i];
                switch (e)
                {
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        sb.Append((char)int.Parse(raw.Substring(i + 1, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                        i += 4;
                        break;
                    default: sb.Append(e); break;
                }
            }
            return sb.ToString();
        }

        /// <summary>At most 32 characters of <paramref name="text"/> for an error (docs/limits.md 7).</summary>
        public static string Quote(string text) { return text.Length <= 32 ? text : text.Substring(0, 32) + "..."; }

        /// <summary>A malformed-input error of the value read last.</summary>
        public DecodeException Malformed(string message) { return new DecodeException(message, "", -1); }

        private static string Name(JsonToken t)
        {
            switch (t)
            {
                case JsonToken.StartObject: return "object";
                case JsonToken.StartArray: return "array";
                case JsonToken.Integer:
                case JsonToken.Float: return "number";
                case JsonToken.String: return "string";
                case JsonToken.Boolean: return "bool";
                case JsonToken.Null: return "null";
                default: return t.ToString();
            }
        }

        /// <summary>The error of a value of another JSON type than the field's.</summary>
        public DecodeException Expected(string what) { return Malformed("expected " + what + ", got " + Name(Token)); }

        // ------------------------------------------------------------ budget and depth

        /// <summary>Charges <paramref name="cost"/> bytes for a value made (docs/limits.md 3).</summary>
        public void Spend(long cost)
        {
            if (cost > _budget)
                throw new DecodeException(ErrorKind.Budget, "decode budget exceeded", "", -1);
            _budget -= cost;
        }

        /// <summary>Enters a struct costing <paramref name="cost"/> whose default, when large, costs
        /// <paramref name="largeDefault"/>: refused deeper than MaxDepth, or when the budget does not pay for it.</summary>
        public void Enter(long cost, long largeDefault)
        {
            if (_depth >= _maxDepth)
                throw new DecodeException(ErrorKind.Depth, "structs nested deeper than " + _maxDepth, "", -1);
            if (largeDefault > _budget)
                throw new DecodeException(ErrorKind.Budget, "decode budget exceeded", "", -1);
            Spend(cost);
            _depth++;
        }

        public void Leave() { _depth--; }

        // ------------------------------------------------------------ values (the current token)

        public bool IsNull { get { return Token == JsonToken.Null; } }

        public bool Bool()
        {
            if (Token != JsonToken.Boolean)
                throw Expected("bool");
            return (bool)_r.Value;
        }

        /// <summary>An integer in [<paramref name="min"/>, <paramref name="max"/>] of the schema type <paramref name="type"/>.</summary>
        public BigInteger Integer(BigInteger min, BigInteger max, string type)
        {
            if (Token == JsonToken.Float)
                throw Malformed("expected an integer " + type + ", got " + Quote(NumberText()));
            if (Token != JsonToken.Integer)
                throw Expected("integer");
            return Range(NumberText(), min, max, type);
        }

        private BigInteger Range(string text, BigInteger min, BigInteger max, string type)
        {
            BigInteger v = ParseInteger(text);
            if (v < min || v > max)
                throw Malformed(Quote(text) + " is out of range for " + type);
            return v;
        }

        /// <summary>The integer of the decimal digits <paramref name="text"/> (a sign may lead): up to 18 digits without
        /// BigInteger's parser.</summary>
        public static BigInteger ParseInteger(string text)
        {
            bool negative = text.Length > 0 && text[0] == '-';
            int start = negative || (text.Length > 0 && text[0] == '+') ? 1 : 0;
            if (text.Length - start > 18 || text.Length == start)
                return BigInteger.Parse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            long v = 0;
            for (int i = start; i < text.Length; i++)
            {
                int d = text[i] - '0';
                if (d < 0 || d > 9)
                    return BigInteger.Parse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);   // its FormatException
                v = v * 10 + d;
            }
            return negative ? -v : v;
        }

        /// <summary>A double (any JSON number, or the strings "NaN", "Infinity", "-Infinity"); with
        /// <paramref name="single"/> within a float's range.</summary>
        public double Double(bool single)
        {
            double v;
            if (Token == JsonToken.String)
            {
                string s = (string)_r.Value;
                if (s == "NaN")
                    v = double.NaN;
                else if (s == "Infinity")
                    v = double.PositiveInfinity;
                else if (s == "-Infinity")
                    v = double.NegativeInfinity;
                else
                    throw Expected("number");
                return v;
            }
            if (Token != JsonToken.Integer && Token != JsonToken.Float)
                throw Expected("number");
            string text = NumberText();
            bool negative = text[0] == '-';
            v = Numbers.ParseDouble(negative ? text.Substring(1) : text);
            if (double.IsInfinity(v))
                throw Malformed(Quote(text) + " is out of range for double");
            v = negative ? -v : v;
            if (single && Math.Abs(v) > 3.4028234663852886e38)
                throw Malformed(Quote(text) + " is out of range for float");
            return v;
        }

        /// <summary>A decimal: a string of exact decimal text, or a JSON number taken as a double and converted as the
        /// original converts one (docs/format.md 2.4).</summary>
        public decimal Decimal()
        {
            if (Token == JsonToken.String)
                return ParseDecimal((string)_r.Value);
            if (Token == JsonToken.Integer || Token == JsonToken.Float)
                return Decimals.FromDouble(Double(false));
            throw Expected("decimal string");
        }

        /// <summary>Exact decimal text (format.md 2.4), refused when no decimal holds it exactly.</summary>
        public DecodeException DecimalError(string message) { return Malformed(message); }

        public decimal ParseDecimal(string text)
        {
            string error;
            decimal v;
            if (!Decimals.TryParse(text, out v, out error))
                throw Malformed(error);
            return v;
        }

        /// <summary>A string, charged its bytes.</summary>
        public string String()
        {
            if (Token != JsonToken.String)
                throw Expected("string");
            string s = StringValue();
            Spend(Utf8.Length(s));
            return s;
        }

        /// <summary>Bytes from strict Base64 (RFC 4648 4: padding, no white space, unused bits zero), charged.</summary>
        public byte[] Bytes()
        {
            if (Token != JsonToken.String)
                throw Expected("base64 string");
            byte[] b = Base64((string)_r.Value);
            Spend(b.Length);
            return b;
        }

        /// <summary>Strict Base64, or an "invalid base64" error.</summary>
        public byte[] Base64(string s)
        {
            const string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            bool ok = s.Length % 4 == 0;
            int pad = s.EndsWith("==", StringComparison.Ordinal) ? 2 : s.EndsWith("=", StringComparison.Ordinal) ? 1 : 0;
            for (int i = 0; ok && i < s.Length - pad; i++)
                ok = alphabet.IndexOf(s[i]) >= 0;
            if (ok && pad > 0)
            {
                int last = alphabet.IndexOf(s[s.Length - pad - 1]);
                ok = (last & (pad == 2 ? 0x0F : 0x03)) == 0;
            }
            if (!ok)
                throw Malformed("invalid base64");
            return Convert.FromBase64String(s);
        }

        /// <summary>A uuid from its text, read as the original reads it (format.md 2.3).</summary>
        public Guid Guid()
        {
            if (Token != JsonToken.String)
                throw Expected("uuid string");
            return ParseGuid((string)_r.Value);
        }

        public Guid ParseGuid(string s)
        {
            byte[] b = _uuid ?? (_uuid = new byte[16]);
            Array.Clear(b, 0, 16);
            int n = 0, half = -1;
            foreach (char c in s)
            {
                if (n == 16)
                    break;
                if (c == '-' || c == '{' || c == '}')
                    continue;
                int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
                if (d < 0)
                    throw Malformed("invalid uuid \"" + Quote(s) + "\"");
                if (half < 0)
                    half = d;
                else
                {
                    b[n++] = (byte)(half << 4 | d);
                    half = -1;
                }
            }
            return Uuid.Read(b, 0);
        }

        // ------------------------------------------------------------ arrays and objects

        /// <summary>Checks the current token starts an array.</summary>
        public void BeginArray()
        {
            if (Token != JsonToken.StartArray)
                throw Expected("array");
        }

        /// <summary>Moves to the next element of the array: false at its end.</summary>
        public bool NextItem()
        {
            Next();
            return Token != JsonToken.EndArray;
        }

        /// <summary>Checks the current token starts an object.</summary>
        public void BeginObject()
        {
            if (Token != JsonToken.StartObject)
                throw Expected("object");
        }

        /// <summary>Moves to the next member: its name (the reader then on its value), or null at the object's end.</summary>
        public string NextMember()
        {
            Next();
            if (Token == JsonToken.EndObject)
                return null;
            string name = _name;
            Next();
            return name;
        }

        /// <summary>Skips the current value (a member nobody reads), checking every rule in it.</summary>
        public void Skip()
        {
            if (Token == JsonToken.String)
                StringValue();
            if (Token != JsonToken.StartArray && Token != JsonToken.StartObject)
                return;
            int depth = 1;
            while (depth > 0)
            {
                Next();
                if (Token == JsonToken.StartArray || Token == JsonToken.StartObject)
                    depth++;
                else if (Token == JsonToken.EndArray || Token == JsonToken.EndObject)
                    depth--;
                else if (Token == JsonToken.String)
                    StringValue();
            }
        }
    }
}
