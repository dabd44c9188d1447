// The long run of the C# fuzzer (tests/csharp/Fuzzer.cs: seeded mutations of the golden vectors, their JSON and the
// protocol streams through the generated readers and the Receiver; docs/csharp.md "Fuzzing"), from make fuzz-csharp:
//
//   mono Fuzz.exe seconds=S|runs=N seed=N crashes=DIR
//
// A failing input is saved as DIR/csharp-<check>-<seed>.bin and the run fails, naming it.

using System;
using System.Collections.Generic;
using System.IO;
using Fbe.Tests;

namespace Fbe.Fuzz
{
    public static class Program
    {
        public static int Main(string[] args)
        {
            var options = new Dictionary<string, string>();
            foreach (string a in args)
            {
                int eq = a.IndexOf('=');
                if (eq < 0)
                {
                    Console.Error.WriteLine("usage: Fuzz.exe seconds=S|runs=N seed=N crashes=DIR");
                    return 2;
                }
                options[a.Substring(0, eq)] = a.Substring(eq + 1);
            }
            Func<string, string, string> option = (name, fallback) => options.ContainsKey(name) ? options[name] : fallback;
            int seed = int.Parse(option("seed", "1"));
            double seconds = double.Parse(option("seconds", "1e9"), System.Globalization.CultureInfo.InvariantCulture);
            long runs = long.Parse(option("runs", long.MaxValue.ToString()));
            string crashes = option("crashes", "crashes");
            var fuzzer = new Fuzzer(seed);
            if (!fuzzer.HasInputs)
            {
                Console.Error.WriteLine("fuzz csharp: no golden vectors (set SHARED): nothing to fuzz");
                return 1;
            }
            Console.WriteLine("fuzz csharp: seed " + seed);
            try
            {
                fuzzer.Run(runs, seconds);
            }
            catch (FuzzFailure f)
            {
                Directory.CreateDirectory(crashes);
                string path = Path.Combine(crashes, "csharp-" + f.Check.Split(' ')[0] + "-" + seed + ".bin");
                File.WriteAllBytes(path, f.Input);
                Console.Error.WriteLine("fuzz csharp: " + f.Message);
                Console.Error.WriteLine("fuzz csharp: the input is " + path + " (after " + fuzzer + ")");
                return 1;
            }
            Console.WriteLine("fuzz csharp: " + fuzzer + ", seed " + seed + ": 1 passed, 0 failed, 0 skipped");
            return 0;
        }
    }
}
