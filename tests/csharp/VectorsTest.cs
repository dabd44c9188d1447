// The generated code of ../shared's schemas against the original's golden vectors ($SHARED/vectors):
// every case's versioned and final root is read (deserialize and verify), written back byte for byte
// (the unspecified bytes of absent optionals masked), and each model's value gives the other model's
// bytes. Verify gives deserialize's verdict and error on every buffer of a seeded mutation of each root.
// Without $SHARED the cases are skipped with a message, and fail under CI=true. The hostile-names
// corpus's value (written by tests/names/hostile.py, see build.py) is one more case.

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using Fbe;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace Fbe.Tests
{
    /// <summary>One case of MANIFEST.json: its generated type and its bytes.</summary>
    public sealed class VectorCase
    {
        public string Name;
        public Type Type;
        public byte[] Versioned;
        public byte[] Final;
        public byte[] Text;
        public byte[] Json;
        public List<int[]> Unspecified = new List<int[]>();

        public override string ToString() { return Name; }
    }

    /// <summary>The generated type's roots, called by reflection (one test for every case).</summary>
    public sealed class Roots
    {
        private readonly Type _type;

        public Roots(Type type) { _type = type; }

        private object Call(string name, params object[] args)
        {
            var types = args.Select(a => a.GetType()).ToArray();
            MethodInfo m = _type.GetMethod(name, BindingFlags.Public | BindingFlags.Static, null, types, null);
            try { return m.Invoke(null, args); }
            catch (TargetInvocationException e) { throw e.InnerException; }
        }

        public object FromFbe(byte[] b) { return Call("FromFbe", b); }
        public object FromFinal(byte[] b) { return Call("FromFinal", b); }
        public object FromJson(byte[] b) { return Call("FromJson", b, b.Length, Limits.Default); }
        public void VerifyFbe(byte[] b) { Call("VerifyFbe", b, b.Length, Limits.Default); }
        public void VerifyFinal(byte[] b) { Call("VerifyFinal", b, b.Length, Limits.Default); }

        public static byte[] ToFbe(object v) { return Invoke(v, "ToFbe"); }
        public static string ToJson(object v) { return (string)Invoke<object>(v, "ToJson"); }
        public static byte[] ToFinal(object v) { return Invoke(v, "ToFinal"); }

        private static byte[] Invoke(object v, string name) { return (byte[])Invoke<object>(v, name); }

        private static T Invoke<T>(object v, string name)
        {
            try { return (T)v.GetType().GetMethod(name, Type.EmptyTypes).Invoke(v, null); }
            catch (TargetInvocationException e) { throw e.InnerException; }
        }
    }

    [TestFixture]
    public class VectorsTest
    {
        private static string Shared()
        {
            return Environment.GetEnvironmentVariable("SHARED") ?? Path.GetFullPath("../shared");
        }

        /// <summary>The PascalCase identifier fbec --csharp gives a schema name (docs/csharp.md "Names").</summary>
        private static string Pascal(string name) { return char.ToUpperInvariant(name[0]) + name.Substring(1); }

        public static IEnumerable<VectorCase> Cases()
        {
            string here = Path.GetDirectoryName(typeof(VectorsTest).Assembly.Location);
            foreach (var c in Cases(Shared(), Path.Combine(here, "Shared.dll")))
                yield return c;
            // the hostile-names corpus (schemas/tests/hostile_names.fbe), written by the reference codec (build.py)
            foreach (var c in Cases(Path.Combine(here, "hostile"), Path.Combine(here, "gen", "tests_hostile_names.dll")))
                yield return c;
        }

        private static IEnumerable<VectorCase> Cases(string folder, string dll)
        {
            string manifest = Path.Combine(folder, "vectors", "MANIFEST.json");
            if (!File.Exists(manifest) || !File.Exists(dll))
                yield break;
            Assembly generated = Assembly.LoadFrom(dll);
            foreach (JToken c in JObject.Parse(File.ReadAllText(manifest))["cases"])
            {
                string name = (string)c["name"];
                Func<string, string> file = suffix => Path.Combine(folder, "vectors", name + suffix);
                var v = new VectorCase
                {
                    Name = name,
                    Type = generated.GetType(Pascal((string)c["package"]) + "." + Pascal((string)c["type"]), true),
                    Versioned = File.ReadAllBytes(file(".fbe.bin")),
                    Final = File.ReadAllBytes(file(".final.bin")),
                    Text = File.ReadAllBytes(file(".txt")),
                    Json = File.Exists(file(".json")) ? File.ReadAllBytes(file(".json")) : null,
                };
                foreach (JToken f in c["files"])
                    if (f["unspecified_bytes"] != null)
                        foreach (JToken r in f["unspecified_bytes"])
                            v.Unspecified.Add(new[] { (int)r[0], (int)r[1] });
                yield return v;
            }
        }

        [Test]
        public void TheVectorsAreThere()
        {
            if (Cases().Any(c => c.Name != "hostile_names"))
                return;
            string why = "no golden vectors at " + Shared() + " (set SHARED): the vector tests did not run";
            if (Environment.GetEnvironmentVariable("CI") == "true")
                Assert.Fail(why);
            Assert.Ignore(why);
        }

        private static byte[] Masked(byte[] b, List<int[]> unspecified)
        {
            var m = (byte[])b.Clone();
            foreach (int[] r in unspecified)
                if (r[0] + r[1] <= m.Length)
                    Array.Clear(m, r[0], r[1]);
            return m;
        }

        [TestCaseSource("Cases")]
        public void ReadsAndWritesBothModels(VectorCase c)
        {
            var roots = new Roots(c.Type);
            object v = roots.FromFbe(c.Versioned);
            roots.VerifyFbe(c.Versioned);
            object f = roots.FromFinal(c.Final);
            roots.VerifyFinal(c.Final);
            Assert.AreEqual(Masked(c.Versioned, c.Unspecified), Masked(Roots.ToFbe(v), c.Unspecified), "ToFbe of the versioned value");
            Assert.AreEqual(c.Final, Roots.ToFinal(f), "ToFinal of the final value");
            Assert.AreEqual(c.Final, Roots.ToFinal(v), "ToFinal of the versioned value");
            Assert.AreEqual(Masked(c.Versioned, c.Unspecified), Masked(Roots.ToFbe(f), c.Unspecified), "ToFbe of the final value");
        }

        [TestCaseSource("Cases")]
        public void PrintsTheTextForm(VectorCase c)
        {
            var roots = new Roots(c.Type);
            Assert.AreEqual(Utf8.Decode(c.Text, 0, c.Text.Length), roots.FromFbe(c.Versioned).ToString(), "the versioned value");
            Assert.AreEqual(c.Text, Utf8.Bytes(roots.FromFinal(c.Final).ToString()), "the final value");
        }

        [TestCaseSource("Cases")]
        public void WritesTheJsonOfTheOriginal(VectorCase c)
        {
            if (c.Json == null)
                return;     // test_struct_hashex: the original has no JSON of struct keys
            var roots = new Roots(c.Type);
            Assert.AreEqual(Utf8.Decode(c.Json, 0, c.Json.Length), Roots.ToJson(roots.FromFinal(c.Final)));
        }

        [TestCaseSource("Cases")]
        public void ReadsTheJsonOfTheOriginal(VectorCase c)
        {
            if (c.Json == null)
                return;
            var roots = new Roots(c.Type);
            object v = roots.FromJson(c.Json);
            if (c.Name == "test_struct_hash")     // a hash's order is its own (format.md 10.3): the JSON reads back
                Assert.AreEqual(Utf8.Decode(c.Json, 0, c.Json.Length), Roots.ToJson(v));
            else
                Assert.AreEqual(c.Final, Roots.ToFinal(v), "the JSON value's final bytes");
        }

        /// <summary>The error of a read or verify, or null when it succeeds.</summary>
        private static string Verdict(Action a)
        {
            try
            {
                a();
                return null;
            }
            catch (DecodeException e)
            {
                return e.Message;
            }
        }

        [TestCaseSource("Cases")]
        public void VerifyGivesTheVerdictOfDeserialize(VectorCase c)
        {
            var roots = new Roots(c.Type);
            var rnd = new Random(1);
            int refused = 0;
            foreach (bool final in new[] { false, true })
            {
                byte[] root = final ? c.Final : c.Versioned;
                for (int k = 0; k < 300; k++)
                {
                    var b = (byte[])root.Clone();
                    int changes = 1 + rnd.Next(3);
                    for (int i = 0; i < changes; i++)
                        b[rnd.Next(b.Length)] = k % 2 == 0 ? (byte)rnd.Next(256) : (byte)(b[rnd.Next(b.Length)] ^ (1 << rnd.Next(8)));
                    string read = Verdict(() => { if (final) roots.FromFinal(b); else roots.FromFbe(b); });
                    string verify = Verdict(() => { if (final) roots.VerifyFinal(b); else roots.VerifyFbe(b); });
                    Assert.AreEqual(read, verify, "mutation " + k + " of the " + (final ? "final" : "versioned") + " root");
                    if (read != null)
                        refused++;
                }
            }
            Assert.Greater(refused, 0, "no mutation was refused");
        }
    }
}
