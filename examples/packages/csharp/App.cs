// A user's program on Fbe.dll (`make -C runtime/csharp`) and the code `fbec --csharp` generated
// from shop.fbe:
//
//   mono app.exe write OUT           writes the sample shop.Order (versioned model) to OUT
//   mono app.exe roundtrip IN OUT    reads a shop.Order from IN and writes it back to OUT
//
// Built with: mcs -out:app.exe -r:Fbe.dll -r:System.Numerics.dll App.cs gen/Shop.cs
using System;
using System.Collections.Generic;
using System.IO;
using Fbe;
using Shop;

internal static class App
{
    private static Order Sample()
    {
        return new Order
        {
            Cart = new Cart
            {
                Id = new Guid("123e4567-e89b-12d3-a456-426655440000"),
                Color = Color.Blue,
                Perm = Perm.Read | Perm.Write,
                Note = -7,
                Memo = null,
                Lines = new List<Line> { new Line { Sku = "A-1", Qty = 2 }, new Line { Sku = "Ünï", Qty = -3 } },
                Prices = new Dictionary<string, decimal>(StringComparer.Ordinal)
                {
                    ["A-1"] = 19.99m,
                    ["B-2"] = -0.000001m,
                    ["C"] = 79228162514264337593543950335m,
                },
                At = new Timestamp(1700000000123456789UL),
            },
        };
    }

    private static int Main(string[] args)
    {
        switch (args[0])
        {
            case "write":
                File.WriteAllBytes(args[1], Sample().ToFbe());
                return 0;
            case "roundtrip":
                File.WriteAllBytes(args[2], Order.FromFbe(File.ReadAllBytes(args[1])).ToFbe());
                return 0;
            default:
                Console.Error.WriteLine("unknown command " + args[0]);
                return 2;
        }
    }
}
