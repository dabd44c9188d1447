// The C# conformance testee (conformance/testee_protocol.md): length-prefixed JSON requests on standard input,
// answered with fbec --csharp's code of every conformance schema (one assembly) on the runtime Fbe.dll. Value
// descriptions are read and written through the final model, walked with the schemas' IR (fbec --ir): a description
// becomes a final root (Describe.cs), which the generated FromFinal reads; a value is described from its final root.

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Text;
using Fbe;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Fbe.Conformance
{
    /// <summary>A generated struct's Model, called by reflection.</summary>
    internal sealed class Model
    {
        private readonly object _model;
        private readonly Type _type;

        public Model(object model)
        {
            _model = model;
            _type = model.GetType();
        }

        public uint TypeId { get { return (uint)_type.GetProperty("TypeId").GetValue(_model, null); } }

        private object Call(string name, Type[] types, params object[] args)
        {
            try { return _type.GetMethod(name, types).Invoke(_model, args); }
            catch (TargetInvocationException e) { throw e.InnerException; }
        }

        private static readonly Type[] Root = { typeof(byte[]), typeof(int), typeof(Limits) };

        public object FromFbe(byte[] b, Limits l) { return Call("FromFbe", Root, b, b.Length, l); }
        public object FromFinal(byte[] b, Limits l) { return Call("FromFinal", Root, b, b.Length, l); }
        public object FromFbe(byte[] b, int n, Limits l) { return Call("FromFbe", Root, b, n, l); }
        public object FromFinal(byte[] b, int n, Limits l) { return Call("FromFinal", Root, b, n, l); }
        public object FromJson(byte[] b, Limits l) { return Call("FromJson", Root, b, b.Length, l); }
        public void VerifyFbe(byte[] b, Limits l) { Call("VerifyFbe", Root, b, b.Length, l); }
        public void VerifyFinal(byte[] b, Limits l) { Call("VerifyFinal", Root, b, b.Length, l); }

        private object Write(string name, object v)
        {
            MethodInfo m = null;
            foreach (MethodInfo x in _type.GetMethods())
                if (x.Name == name && x.GetParameters().Length == 1)
                    m = x;
            try { return m.Invoke(_model, new[] { v }); }
            catch (TargetInvocationException e) { throw e.InnerException; }
        }

        public byte[] ToFbe(object v) { return (byte[])Write("ToFbe", v); }
        public byte[] ToFinal(object v) { return (byte[])Write("ToFinal", v); }
        public string ToJson(object v) { return (string)Write("ToJson", v); }

        public byte[] ToText(object v)
        {
            var t = new TextBuilder();
            try { _type.GetMethod("Text").Invoke(_model, new[] { t, v }); }
            catch (TargetInvocationException e) { throw e.InnerException; }
            return t.ToArray();
        }
    }

    public static class Testee
    {
        private static readonly Dictionary<string, Model> Models = new Dictionary<string, Model>();

        /// <summary>Every generated Model of the assembly, by the struct's qualified schema name.</summary>
        private static void Load(Assembly generated)
        {
            foreach (Type t in generated.GetTypes())
            {
                if (t.Name != "Model" || t.GetField("Instance") == null)
                    continue;
                object instance = t.GetField("Instance").GetValue(null);
                Models[(string)t.GetProperty("Name").GetValue(instance, null)] = new Model(instance);
            }
        }

        private static Limits LimitsOf(JToken l)
        {
            var limits = new Limits();
            if (l == null)
                return limits;
            if (l["max_depth"] != null)
                limits.MaxDepth = (int)l["max_depth"];
            if (l["budget_factor"] != null)
                limits.BudgetFactor = (long)l["budget_factor"];
            if (l["budget_slack"] != null)
                limits.BudgetSlack = (long)l["budget_slack"];
            if (l["max_frame_size"] != null)
                limits.MaxFrameSize = (long)l["max_frame_size"];
            return limits;
        }

        private static JObject Answer(string kind, JToken value)
        {
            return new JObject { { kind, value } };
        }

        private static JObject Handle(JObject request, Describe describe)
        {
            string qualified = (string)request["package"] + "." + (string)request["type"];
            string inFormat = (string)request["input"]["format"];
            string output = (string)request["output"];
            if (inFormat == "stream" || inFormat == "final_stream")
                return Stream(request, describe, inFormat == "final_stream");
            Model model;
            if (!Models.TryGetValue(qualified, out model))
                return Answer("skipped", "no generated type " + qualified);
            Limits limits = LimitsOf(request["limits"]);
            JToken payload = request["input"]["payload"];
            object value;
            try
            {
                byte[] data = inFormat == "json" ? Encoding.UTF8.GetBytes((string)payload)
                    : inFormat == "value" ? null : Convert.FromBase64String((string)payload);
                if (output == "verify")
                {
                    if (inFormat == "versioned")
                        model.VerifyFbe(data, limits);
                    else
                        model.VerifyFinal(data, limits);
                    return Answer("result", "ok");
                }
                switch (inFormat)
                {
                    case "versioned": value = model.FromFbe(data, limits); break;
                    case "final": value = model.FromFinal(data, limits); break;
                    case "json": value = model.FromJson(data, limits); break;
                    default:
                        byte[] root = describe.Encode(payload, qualified, model.TypeId);
                        var trusted = new Limits { MaxDepth = int.MaxValue, BudgetSlack = long.MaxValue / 2 };
                        value = model.FromFinal(root, trusted);
                        break;
                }
            }
            catch (DecodeException e)
            {
                return Answer("parse_error", e.Message);
            }
            catch (Unheld e)
            {
                return Answer("serialize_error", e.Message + " (" + qualified + e.Path + ")");
            }
            try
            {
                switch (output)
                {
                    case "versioned": return Answer("result", Convert.ToBase64String(model.ToFbe(value)));
                    case "final": return Answer("result", Convert.ToBase64String(model.ToFinal(value)));
                    case "json": return Answer("result", model.ToJson(value));
                    case "text": return Answer("result", Convert.ToBase64String(model.ToText(value)));
                    case "value": return Answer("result", describe.Decode(model.ToFinal(value), qualified));
                    default: return Answer("skipped", "output " + output);
                }
            }
            catch (EncodeException e)
            {
                return Answer("serialize_error", e.Message);
            }
        }

        private static JObject Parse(string text)
        {
            using (var reader = new JsonTextReader(new StringReader(text)) { DateParseHandling = DateParseHandling.None })
                return JObject.Load(reader);
        }

        /// <summary>
        /// The JSON text with every number that has a fraction or an exponent made a string of its digits, which
        /// Describe reads with Fbe.Numbers.ParseDouble: Newtonsoft reads them with Mono's double.Parse, which is
        /// not correctly rounded (2.225073858507203e-309, a subnormal, read as 2.2250738585072e-309) and drops the
        /// sign of a negative zero (so "-0" is made a string too). Strings are copied as they are.
        /// </summary>
        private static string QuotedReals(string text)
        {
            var quoted = new StringBuilder(text.Length + 16);
            for (int i = 0; i < text.Length;)
            {
                char c = text[i];
                if (c == '"')
                {
                    int end = i + 1;
                    while (text[end] != '"')
                        end += text[end] == '\\' ? 2 : 1;
                    quoted.Append(text, i, end + 1 - i);
                    i = end + 1;
                }
                else if (c == '-' || (c >= '0' && c <= '9'))
                {
                    int end = i + 1;
                    while (end < text.Length && "+-.eE0123456789".IndexOf(text[end]) >= 0)
                        end++;
                    string number = text.Substring(i, end - i);
                    bool real = number.IndexOfAny(new[] { '.', 'e', 'E' }) >= 0 || number == "-0";
                    quoted.Append(real ? "\"" + number + "\"" : number);
                    i = end;
                }
                else
                {
                    quoted.Append(c);
                    i++;
                }
            }
            return quoted.ToString();
        }

        /// <summary>
        /// Newtonsoft reads a lone surrogate escape as U+FFFD: each string of <paramref name="token"/> holding U+FFFD is
        /// read again from its text in <paramref name="text"/> with the runtime's JsonSource.Unescape, so that the
        /// description's \udcXY stays the byte 0xXY and any other lone surrogate reaches the check that refuses it.
        /// </summary>
        private static void KeepSurrogates(JToken token, string text)
        {
            var value = token as JValue;
            if (value == null)
            {
                foreach (JToken child in token.Children())
                    KeepSurrogates(child is JProperty ? ((JProperty)child).Value : child, text);
                return;
            }
            var s = value.Value as string;
            if (s == null || s.IndexOf('\uFFFD') < 0)
                return;
            // the line info of a string is the position just after its closing quote
            var at = (IJsonLineInfo)value;
            int end = -1;
            for (int line = 1; line < at.LineNumber; line++)
                end = text.IndexOf('\n', end + 1);
            end += at.LinePosition;
            while (text[end] != '"')
                end--;
            int start = end - 1;
            while (true)
            {
                int slashes = 0;
                while (text[start - 1 - slashes] == '\\')
                    slashes++;
                if (text[start] == '"' && slashes % 2 == 0)
                    break;
                start--;
            }
            value.Value = JsonSource.Unescape(text.Substring(start + 1, end - start - 1));
        }

        /// <summary>A protocol stream fed in one call to a Receiver of the package's messages: what it did, in order.</summary>
        private static JObject Stream(JObject request, Describe describe, bool final)
        {
            var events = new JArray();
            var receiver = new Receiver(final, LimitsOf(request["limits"]))
            {
                Message = (name, value) => events.Add(new JObject { { "message", name } }),
                Error = reason => events.Add(new JObject { { "error", reason } }),
            };
            foreach (JToken d in describe.Dispatch[(string)request["package"]])
            {
                Model model;
                if (!Models.TryGetValue((string)d["type"], out model))
                    continue;
                if (final)
                    receiver.Register((uint)d["type_id"], (string)d["type"], model.FromFinal);
                else
                    receiver.Register((uint)d["type_id"], (string)d["type"], model.FromFbe);
            }
            byte[] data = Convert.FromBase64String((string)request["input"]["payload"]);
            receiver.Receive(data, 0, data.Length);
            return Answer("result", events);
        }

        private static byte[] ReadExactly(Stream s, int n)
        {
            var b = new byte[n];
            int got = 0;
            while (got < n)
            {
                int k = s.Read(b, got, n - got);
                if (k <= 0)
                    return null;
                got += k;
            }
            return b;
        }

        public static int Main(string[] args)
        {
            // args: the generated assembly, then the IR of every schema (fbec --ir)
            Load(Assembly.LoadFrom(args[0]));
            var describe = new Describe();
            for (int i = 1; i < args.Length; i++)
                describe.AddIr(JObject.Parse(File.ReadAllText(args[i])));
            Stream input = Console.OpenStandardInput(), output = Console.OpenStandardOutput();
            while (true)
            {
                byte[] size = ReadExactly(input, 4);
                if (size == null)
                    return 0;
                byte[] body = ReadExactly(input, BitConverter.ToInt32(size, 0));
                if (body == null)
                    return 0;
                string text = Encoding.UTF8.GetString(body);
                JObject request = Parse(text);
                // a value description's reals (negative zero included, whose sign Mono's double.Parse drops)
                // become strings, which Describe reads correctly rounded
                if ((string)request["input"]?["format"] == "value")
                {
                    string described = QuotedReals(text);
                    request = Parse(described);
                    KeepSurrogates(request["input"]["payload"], described);
                }
                if (request["quit"] != null)
                    return 0;
                JObject answer;
                bool measure = request["measure"] != null && (bool)request["measure"];
                long before = measure ? GC.GetTotalMemory(true) : 0;
                var clock = Stopwatch.StartNew();
                try
                {
                    answer = Handle(request, describe);
                }
                catch (Exception e)
                {
                    answer = Answer("parse_error", e.GetType().Name + ": " + e.Message);
                }
                if (measure)
                    answer["measured"] = new JObject
                    {
                        { "peak_bytes", Math.Max(0, GC.GetTotalMemory(false) - before) },
                        { "seconds", clock.Elapsed.TotalSeconds },
                    };
                // non-ASCII escaped: a string's byte held as U+DC80..U+DCFF goes out as \udcXY
                var json = new StringWriter();
                answer.WriteTo(new JsonTextWriter(json) { StringEscapeHandling = StringEscapeHandling.EscapeNonAscii });
                byte[] reply = Encoding.UTF8.GetBytes(json.ToString());
                output.Write(BitConverter.GetBytes(reply.Length), 0, 4);
                output.Write(reply, 0, reply.Length);
                output.Flush();
            }
        }
    }
}
