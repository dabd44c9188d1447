// The C# benchmark on the trade model (docs/benchmarks.md, section C#): our code of fbec --csharp
// --final --json against Newtonsoft.Json, DataContractSerializer with the binary XML writer,
// BinaryFormatter and a hand-written BinaryWriter/BinaryReader baseline, in one run on Mono.
//
// Every row converts from and to the same domain objects (the classes fbec --csharp generates for
// schemas/trade.fbe): serialize is Account -> bytes into the row's reused buffer, deserialize + touch
// is bytes -> Account, then every field read. Timing is System.Diagnostics.Stopwatch: a warm-up,
// then repetitions interleaved over the rows (round r of every row before round r + 1), each a batch
// long enough to last BatchMs; medians and best rounds of ns per operation are reported.
//
//   mono Bench.exe --check                 every row's round trip and verify, once
//   mono Bench.exe [--reps N] [--batch-ms M] [--out DIR]   the table (stdout, DIR/csharp.md)
//   mono --profile=log:sample,alloc Bench.exe --only 'FBE (ours)/serialize' [--iterations N]
//                                          one operation N times, untimed (for a profiler)

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Formatters.Binary;
using System.Text;
using System.Xml;
using Fbe;
using Newtonsoft.Json;
using Proto;

namespace FbeBench
{
    /// <summary>One row: serialize into a reused buffer (the message is Buffer[0..Size)), read back.</summary>
    abstract class Row
    {
        public abstract string Name { get; }
        public abstract void Serialize(Account a);
        public abstract byte[] Buffer { get; }
        public abstract int Size { get; }
        public abstract Account Deserialize(byte[] data, int length);
        /// <summary>Throws when the message does not read back whole; null when the format has no verifier.</summary>
        public virtual Action<byte[], int> Verify { get { return null; } }
    }

    sealed class OursVersioned : Row
    {
        readonly Writer _w = new Writer();
        public override string Name { get { return "FBE (ours)"; } }
        public override void Serialize(Account a) { a.WriteFbe(_w); }
        public override byte[] Buffer { get { return _w.Buffer; } }
        public override int Size { get { return _w.Size; } }
        public override Account Deserialize(byte[] data, int length) { return Account.FromFbe(data, length, Limits.Default); }
        public override Action<byte[], int> Verify { get { return (d, n) => Account.VerifyFbe(d, n, Limits.Default); } }
    }

    sealed class OursFinal : Row
    {
        readonly Writer _w = new Writer();
        public override string Name { get { return "FBE final (ours)"; } }
        public override void Serialize(Account a) { a.WriteFinal(_w); }
        public override byte[] Buffer { get { return _w.Buffer; } }
        public override int Size { get { return _w.Size; } }
        public override Account Deserialize(byte[] data, int length) { return Account.FromFinal(data, length, Limits.Default); }
        public override Action<byte[], int> Verify { get { return (d, n) => Account.VerifyFinal(d, n, Limits.Default); } }
    }

    /// <summary>Our JSON: the generated writer into a reused JsonBuilder (its bytes copied out: the
    /// builder has no view of its buffer), the generated reader over the UTF-8 bytes.</summary>
    sealed class OursJson : Row
    {
        readonly JsonBuilder _j = new JsonBuilder();
        byte[] _out = new byte[0];
        public override string Name { get { return "FBE JSON (ours)"; } }
        public override void Serialize(Account a) { Account.Model.Instance.WriteJson(_j, a); _out = _j.ToArray(); }
        public override byte[] Buffer { get { return _out; } }
        public override int Size { get { return _out.Length; } }
        public override Account Deserialize(byte[] data, int length) { return Account.FromJson(data, length, Limits.Default); }
    }

    /// <summary>Newtonsoft.Json on the domain classes themselves, a reused JsonSerializer over a reused MemoryStream.</summary>
    sealed class Newtonsoft : Row
    {
        readonly JsonSerializer _s = JsonSerializer.CreateDefault();
        readonly MemoryStream _ms = new MemoryStream();
        static readonly UTF8Encoding Utf8NoBom = new UTF8Encoding(false);
        public override string Name { get { return "Newtonsoft.Json 6.0"; } }
        public override void Serialize(Account a)
        {
            _ms.SetLength(0);
            using (var sw = new StreamWriter(_ms, Utf8NoBom, 1024, true))
            using (var jw = new JsonTextWriter(sw))
                _s.Serialize(jw, a);
        }
        public override byte[] Buffer { get { return _ms.GetBuffer(); } }
        public override int Size { get { return (int)_ms.Length; } }
        public override Account Deserialize(byte[] data, int length)
        {
            using (var sr = new StreamReader(new MemoryStream(data, 0, length, false), Utf8NoBom))
            using (var jr = new JsonTextReader(sr))
                return _s.Deserialize<Account>(jr);
        }
    }

    // The peers that need attributed types (BinaryFormatter: [Serializable]; DataContractSerializer:
    // [DataContract]) use these mirrors of the schema, converted from and to the domain objects.
    [Serializable, DataContract(Name = "Order", Namespace = "")]
    sealed class DOrder
    {
        [DataMember(Order = 0)] public int Id;
        [DataMember(Order = 1)] public string Symbol;
        [DataMember(Order = 2)] public byte Side;
        [DataMember(Order = 3)] public byte Type;
        [DataMember(Order = 4)] public double Price;
        [DataMember(Order = 5)] public double Volume;
    }

    [Serializable, DataContract(Name = "Balance", Namespace = "")]
    sealed class DBalance
    {
        [DataMember(Order = 0)] public string Currency;
        [DataMember(Order = 1)] public double Amount;
    }

    [Serializable, DataContract(Name = "Account", Namespace = "")]
    sealed class DAccount
    {
        [DataMember(Order = 0)] public int Id;
        [DataMember(Order = 1)] public string Name;
        [DataMember(Order = 2)] public byte State;
        [DataMember(Order = 3)] public DBalance Wallet;
        [DataMember(Order = 4)] public DBalance Asset;
        [DataMember(Order = 5)] public List<DOrder> Orders;

        static DBalance From(Balance b) { return b == null ? null : new DBalance { Currency = b.Currency, Amount = b.Amount }; }
        static Balance To(DBalance b) { return b == null ? null : new Balance { Currency = b.Currency, Amount = b.Amount }; }

        public static DAccount From(Account a)
        {
            var orders = new List<DOrder>(a.Orders.Count);
            foreach (Order o in a.Orders)
                orders.Add(new DOrder { Id = o.Id, Symbol = o.Symbol, Side = (byte)o.Side, Type = (byte)o.Type, Price = o.Price, Volume = o.Volume });
            return new DAccount { Id = a.Id, Name = a.Name, State = (byte)a.State, Wallet = From(a.Wallet), Asset = From(a.Asset), Orders = orders };
        }

        public Account To()
        {
            var orders = new List<Order>(Orders.Count);
            foreach (DOrder o in Orders)
                orders.Add(new Order { Id = o.Id, Symbol = o.Symbol, Side = (OrderSide)o.Side, Type = (OrderType)o.Type, Price = o.Price, Volume = o.Volume });
            return new Account { Id = Id, Name = Name, State = (State)State, Wallet = To(Wallet), Asset = To(Asset), Orders = orders };
        }
    }

    /// <summary>DataContractSerializer through XmlDictionaryWriter.CreateBinaryWriter (WCF's binary XML).</summary>
    sealed class DataContract : Row
    {
        readonly DataContractSerializer _s = new DataContractSerializer(typeof(DAccount));
        readonly MemoryStream _ms = new MemoryStream();
        public override string Name { get { return "DataContractSerializer (binary XML)"; } }
        public override void Serialize(Account a)
        {
            _ms.SetLength(0);
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(_ms, null, null, false))
                _s.WriteObject(w, DAccount.From(a));
        }
        public override byte[] Buffer { get { return _ms.GetBuffer(); } }
        public override int Size { get { return (int)_ms.Length; } }
        public override Account Deserialize(byte[] data, int length)
        {
            using (XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(data, 0, length, XmlDictionaryReaderQuotas.Max))
                return ((DAccount)_s.ReadObject(r)).To();
        }
    }

    /// <summary>BinaryFormatter (obsolete on .NET 5+, still in Mono) over a reused MemoryStream.</summary>
    sealed class Formatter : Row
    {
        readonly BinaryFormatter _f = new BinaryFormatter();
        readonly MemoryStream _ms = new MemoryStream();
        public override string Name { get { return "BinaryFormatter"; } }
        public override void Serialize(Account a)
        {
            _ms.SetLength(0);
            _f.Serialize(_ms, DAccount.From(a));
        }
        public override byte[] Buffer { get { return _ms.GetBuffer(); } }
        public override int Size { get { return (int)_ms.Length; } }
        public override Account Deserialize(byte[] data, int length)
        {
            return ((DAccount)_f.Deserialize(new MemoryStream(data, 0, length, false))).To();
        }
    }

    /// <summary>The baseline: the same fields written by hand with BinaryWriter/BinaryReader (length-prefixed
    /// strings, a presence byte for the asset, a count before the orders), writer and reader reused.</summary>
    sealed class Handwritten : Row
    {
        readonly MemoryStream _ms = new MemoryStream();
        readonly BinaryWriter _w;
        public Handwritten() { _w = new BinaryWriter(_ms, new UTF8Encoding(false), true); }
        public override string Name { get { return "BinaryWriter (by hand)"; } }
        public override void Serialize(Account a)
        {
            _ms.SetLength(0);
            BinaryWriter w = _w;
            w.Write(a.Id);
            w.Write(a.Name);
            w.Write((byte)a.State);
            w.Write(a.Wallet.Currency);
            w.Write(a.Wallet.Amount);
            w.Write(a.Asset != null);
            if (a.Asset != null)
            {
                w.Write(a.Asset.Currency);
                w.Write(a.Asset.Amount);
            }
            w.Write(a.Orders.Count);
            foreach (Order o in a.Orders)
            {
                w.Write(o.Id);
                w.Write(o.Symbol);
                w.Write((byte)o.Side);
                w.Write((byte)o.Type);
                w.Write(o.Price);
                w.Write(o.Volume);
            }
            w.Flush();
        }
        public override byte[] Buffer { get { return _ms.GetBuffer(); } }
        public override int Size { get { return (int)_ms.Length; } }
        public override Account Deserialize(byte[] data, int length)
        {
            using (var r = new BinaryReader(new MemoryStream(data, 0, length, false), Encoding.UTF8))
            {
                var a = new Account { Id = r.ReadInt32(), Name = r.ReadString(), State = (State)r.ReadByte() };
                a.Wallet = new Balance { Currency = r.ReadString(), Amount = r.ReadDouble() };
                if (r.ReadBoolean())
                    a.Asset = new Balance { Currency = r.ReadString(), Amount = r.ReadDouble() };
                int n = r.ReadInt32();
                if (n < 0 || n > length)
                    throw new InvalidDataException("order count " + n);
                var orders = new List<Order>(n);
                for (int i = 0; i < n; i++)
                    orders.Add(new Order { Id = r.ReadInt32(), Symbol = r.ReadString(), Side = (OrderSide)r.ReadByte(), Type = (OrderType)r.ReadByte(), Price = r.ReadDouble(), Volume = r.ReadDouble() });
                a.Orders = orders;
                return a;
            }
        }
    }

    static class Program
    {
        static Order MakeOrder(int id, string symbol, OrderSide side, OrderType type, double price, double volume)
        {
            return new Order { Id = id, Symbol = symbol, Side = side, Type = type, Price = price, Volume = volume };
        }

        /// <summary>The account of bench/cpp/domain.cpp's sample_account.</summary>
        static Account Sample()
        {
            return new Account
            {
                Id = 1, Name = "Test", State = State.Good,
                Wallet = new Balance { Currency = "USD", Amount = 1000.0 },
                Asset = new Balance { Currency = "EUR", Amount = 100.0 },
                Orders = new List<Order>
                {
                    MakeOrder(1, "EURUSD", OrderSide.Buy, OrderType.Market, 1.23456, 1000.0),
                    MakeOrder(2, "EURUSD", OrderSide.Sell, OrderType.Limit, 1.0, 100.0),
                    MakeOrder(3, "EURUSD", OrderSide.Buy, OrderType.Stop, 1.5, 10.0),
                },
            };
        }

        /// <summary>The accounts every row round-trips before it is timed (bench/cpp/domain.cpp's check_accounts).</summary>
        static List<Account> CheckAccounts()
        {
            var b = new Account { Id = 42, Name = "Second account", State = State.Initialized, Wallet = new Balance { Currency = "GBP", Amount = -12.5 } };
            for (int i = 0; i < 5; i++)
                b.Orders.Add(MakeOrder(100 + i, i % 2 == 1 ? "GBPUSD" : "USDJPY", i % 2 == 1 ? OrderSide.Sell : OrderSide.Buy, (OrderType)(i % 3), 0.5 + i, 1e6 * (i + 1)));
            var c = new Account { Id = 0, Name = "", State = State.Unknown, Wallet = new Balance { Currency = "", Amount = 0.0 } };
            return new List<Account> { Sample(), b, c };
        }

        static string Diff(Account a, Account b)
        {
            Func<Balance, string> bal = x => x == null ? "none" : x.Currency + "/" + x.Amount.ToString("R", CultureInfo.InvariantCulture);
            if (a.Id != b.Id || a.Name != b.Name || a.State != b.State)
                return "id/name/state";
            if (bal(a.Wallet) != bal(b.Wallet))
                return "wallet";
            if (bal(a.Asset) != bal(b.Asset))
                return "asset";
            if (a.Orders.Count != b.Orders.Count)
                return "orders.Count";
            for (int i = 0; i < a.Orders.Count; i++)
            {
                Order x = a.Orders[i], y = b.Orders[i];
                if (x.Id != y.Id || x.Symbol != y.Symbol || x.Side != y.Side || x.Type != y.Type || x.Price != y.Price || x.Volume != y.Volume)
                    return "orders[" + i + "]";
            }
            return null;
        }

        /// <summary>Reads every field of a decoded account (the sum keeps the reads alive).</summary>
        static long Touch(Account a)
        {
            long s = a.Id + a.Name.Length + (long)a.State + a.Wallet.Currency.Length + (long)a.Wallet.Amount;
            if (a.Asset != null)
                s += a.Asset.Currency.Length + (long)a.Asset.Amount;
            foreach (Order o in a.Orders)
                s += o.Id + o.Symbol.Length + (long)o.Side + (long)o.Type + (long)o.Price + (long)o.Volume;
            return s;
        }

        /// <summary>Null when the row round-trips every check account and its verifier accepts its own message
        /// and rejects a truncated one; the reason otherwise.</summary>
        static string Check(Row row)
        {
            try
            {
                foreach (Account a in CheckAccounts())
                {
                    row.Serialize(a);
                    byte[] msg = new byte[row.Size];
                    Array.Copy(row.Buffer, msg, row.Size);
                    string d = Diff(a, row.Deserialize(msg, msg.Length));
                    if (d != null)
                        return "round trip differs at " + d;
                    if (row.Verify != null)
                    {
                        row.Verify(msg, msg.Length);
                        bool rejected = false;
                        try { row.Verify(msg, msg.Length - 1); }
                        catch (DecodeException) { rejected = true; }
                        if (!rejected)
                        {
                            try { Diff(a, row.Deserialize(msg, msg.Length - 1)); }
                            catch (DecodeException) { return "verify accepts a truncated message deserialize refuses"; }
                        }
                    }
                }
            }
            catch (Exception e)
            {
                return e.GetType().Name + ": " + e.Message;
            }
            return null;
        }

        sealed class Op
        {
            public string Row, Name;
            public Action<int> Run; // n operations
            public long Iterations;
            public readonly List<double> Ns = new List<double>();
            public double Median { get { var s = Ns.OrderBy(x => x).ToList(); int n = s.Count; return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; } }
            public double Best { get { return Ns.Min(); } }
        }

        static long _sink;

        static int Main(string[] args)
        {
            int reps = 5;
            double batchMs = 100;
            string outDir = null;
            bool checkOnly = false;
            string only = null;
            int iterations = 1000000;
            for (int i = 0; i < args.Length; i++)
            {
                switch (args[i])
                {
                    case "--check": checkOnly = true; break;
                    case "--reps": reps = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                    case "--batch-ms": batchMs = double.Parse(args[++i], CultureInfo.InvariantCulture); break;
                    case "--out": outDir = args[++i]; break;
                    case "--only": only = args[++i]; break;
                    case "--iterations": iterations = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                    default: Console.Error.WriteLine("usage: Bench.exe [--check] [--reps N] [--batch-ms M] [--out DIR] [--only ROW/OP [--iterations N]]"); return 2;
                }
            }

            var rows = new List<Row> { new OursVersioned(), new OursFinal(), new OursJson(), new Newtonsoft(), new DataContract(), new Formatter(), new Handwritten() };
            var status = new Dictionary<string, string>();
            bool ok = true;
            foreach (Row row in rows)
            {
                string why = Check(row);
                status[row.Name] = why ?? "ok";
                ok &= why == null;
                Console.WriteLine("row\t" + row.Name + "\t" + (why ?? "ok"));
            }
            if (checkOnly)
                return ok ? 0 : 1;

            Account sample = Sample();
            var ops = new List<Op>();
            var sizes = new Dictionary<string, int>();
            var allocs = new Dictionary<string, double>();
            foreach (Row row in rows.Where(r => status[r.Name] == "ok"))
            {
                Row r = row;
                r.Serialize(sample);
                byte[] msg = new byte[r.Size];
                Array.Copy(r.Buffer, msg, r.Size);
                sizes[r.Name] = msg.Length;
                ops.Add(new Op { Row = r.Name, Name = "serialize", Run = n => { for (int i = 0; i < n; i++) r.Serialize(sample); } });
                ops.Add(new Op { Row = r.Name, Name = "deserialize+touch", Run = n => { long s = 0; for (int i = 0; i < n; i++) s += Touch(r.Deserialize(msg, msg.Length)); _sink += s; } });
                if (r.Verify != null)
                {
                    Action<byte[], int> v = r.Verify;
                    ops.Add(new Op { Row = r.Name, Name = "verify", Run = n => { for (int i = 0; i < n; i++) v(msg, msg.Length); } });
                }
                // Allocations of serialize into the reused buffer, after a warm-up (GC.GetAllocatedBytesForCurrentThread:
                // Mono counts them per thread-local allocation chunk, so over many operations).
                for (int i = 0; i < 1000; i++) r.Serialize(sample);
                const int AllocN = 20000;
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 0; i < AllocN; i++) r.Serialize(sample);
                allocs[r.Name] = (GC.GetAllocatedBytesForCurrentThread() - before) / (double)AllocN;
            }

            if (only != null)
            {
                Op op = ops.FirstOrDefault(o => o.Row + "/" + o.Name == only);
                if (op == null)
                {
                    Console.Error.WriteLine("no operation " + only + "; one of: " + string.Join(", ", ops.Select(o => o.Row + "/" + o.Name)));
                    return 2;
                }
                op.Run(iterations);
                return 0;
            }

            // Warm-up and calibration: each operation runs until it has lasted batchMs, doubling n.
            var sw = new Stopwatch();
            foreach (Op op in ops)
            {
                long n = 1;
                while (true)
                {
                    sw.Restart();
                    op.Run((int)n);
                    sw.Stop();
                    if (sw.Elapsed.TotalMilliseconds >= batchMs / 2 || n > (1 << 26))
                        break;
                    n *= 2;
                }
                op.Iterations = Math.Max(1, (long)(n * batchMs / Math.Max(sw.Elapsed.TotalMilliseconds, 1e-3)));
            }
            Console.Error.WriteLine("bench-csharp: " + ops.Count + " operations, " + reps + " interleaved repetitions of about " + batchMs + " ms each");
            for (int rep = 0; rep < reps; rep++)
            {
                foreach (Op op in ops)
                {
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                    sw.Restart();
                    op.Run((int)op.Iterations);
                    sw.Stop();
                    op.Ns.Add(sw.Elapsed.TotalMilliseconds * 1e6 / op.Iterations);
                }
            }

            string md = Report(rows, status, ops, sizes, allocs, reps, batchMs);
            Console.Write(md);
            if (outDir != null)
            {
                Directory.CreateDirectory(outDir);
                File.WriteAllText(Path.Combine(outDir, "csharp.md"), md);
            }
            return ok ? 0 : 1;
        }

        static string F(double ns) { return ns.ToString(ns >= 100 ? "N0" : "N1", CultureInfo.InvariantCulture); }

        static string Report(List<Row> rows, Dictionary<string, string> status, List<Op> ops, Dictionary<string, int> sizes,
                             Dictionary<string, double> allocs, int reps, double batchMs)
        {
            var sb = new StringBuilder();
            Func<string, string, Op> find = (row, name) => ops.FirstOrDefault(o => o.Row == row && o.Name == name);
            Func<Op, string> cell = o => o == null ? "" : F(o.Median) + " (" + F(o.Best) + ")";
            sb.AppendLine("| row | size, bytes | serialize, ns | deserialize + touch, ns | verify, ns | allocated per serialize, bytes | check |");
            sb.AppendLine("| --- | --: | --: | --: | --: | --: | --- |");
            foreach (Row r in rows)
            {
                string st = status[r.Name];
                if (st != "ok")
                {
                    sb.AppendLine("| " + r.Name + " | | | | | | " + st + " |");
                    continue;
                }
                sb.AppendLine("| " + r.Name + " | " + sizes[r.Name] + " | " + cell(find(r.Name, "serialize")) + " | " + cell(find(r.Name, "deserialize+touch")) +
                              " | " + cell(find(r.Name, "verify")) + " | " + allocs[r.Name].ToString("N1", CultureInfo.InvariantCulture) + " | ok |");
            }
            sb.AppendLine();
            sb.AppendLine("Medians of " + reps + " interleaved rounds of about " + batchMs + " ms (best round in brackets), Stopwatch, " +
                          "mono " + MonoVersion() + ", " + Environment.ProcessorCount + " cores.");
            sb.AppendLine();
            sb.AppendLine("Goals of issue 27 (ratios in this run), on medians / on best rounds:");
            sb.AppendLine();
            Func<Func<Op, double>, string, string, double> ratio = (pick, row, name) =>
            {
                Op o = find(row, name);
                return o == null ? double.NaN : pick(o);
            };
            var goals = new List<Tuple<string, Func<Func<Op, double>, bool>>>
            {
                Tuple.Create<string, Func<Func<Op, double>, bool>>("at least 10x faster than Newtonsoft.Json on serialize and on deserialize + touch (versioned)",
                    p => ratio(p, "Newtonsoft.Json 6.0", "serialize") >= 10 * ratio(p, "FBE (ours)", "serialize")
                         && ratio(p, "Newtonsoft.Json 6.0", "deserialize+touch") >= 10 * ratio(p, "FBE (ours)", "deserialize+touch")),
                Tuple.Create<string, Func<Func<Op, double>, bool>>("within 1.5x of the BinaryWriter baseline on serialize and on deserialize + touch (versioned)",
                    p => ratio(p, "FBE (ours)", "serialize") <= 1.5 * ratio(p, "BinaryWriter (by hand)", "serialize")
                         && ratio(p, "FBE (ours)", "deserialize+touch") <= 1.5 * ratio(p, "BinaryWriter (by hand)", "deserialize+touch")),
                Tuple.Create<string, Func<Func<Op, double>, bool>>("final <= versioned on serialize and on deserialize + touch",
                    p => ratio(p, "FBE final (ours)", "serialize") <= ratio(p, "FBE (ours)", "serialize")
                         && ratio(p, "FBE final (ours)", "deserialize+touch") <= ratio(p, "FBE (ours)", "deserialize+touch")),
                Tuple.Create<string, Func<Func<Op, double>, bool>>("verify <= deserialize + touch, both models",
                    p => ratio(p, "FBE (ours)", "verify") <= ratio(p, "FBE (ours)", "deserialize+touch")
                         && ratio(p, "FBE final (ours)", "verify") <= ratio(p, "FBE final (ours)", "deserialize+touch")),
            };
            Func<Op, double> median = o => o.Median, best = o => o.Best;
            foreach (var g in goals)
                sb.AppendLine("- " + g.Item1 + ": " + (g.Item2(median) ? "met" : "not met") + " / " + (g.Item2(best) ? "met" : "not met"));
            bool zero = allocs.ContainsKey("FBE (ours)") && allocs["FBE (ours)"] < 1 && allocs.ContainsKey("FBE final (ours)") && allocs["FBE final (ours)"] < 1;
            sb.AppendLine("- zero allocations on serialize into a reused buffer (both models): " + (zero ? "met" : "not met"));
            return sb.ToString();
        }

        static string MonoVersion()
        {
            Type t = Type.GetType("Mono.Runtime");
            if (t == null)
                return "(not Mono)";
            var m = t.GetMethod("GetDisplayName", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static);
            return m == null ? "?" : ((string)m.Invoke(null, null)).Split(' ')[0];
        }
    }
}
