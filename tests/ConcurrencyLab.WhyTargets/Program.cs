// Programs for conclab why's integration tests, each made so that its answer is known by construction:
//   sync-over-async ITEMS MS  ITEMS pool work items, each blocking on Task.Result of a MS ms delay in
//                             OrderDesk.LoadBlocking: the pool's threads block there, and the pool must add threads
//   lock ITEMS MS             ITEMS pool work items, each holding Ledger's lock for MS ms in turn
//   sleep ITEMS MS            ITEMS pool work items queued at once, each sleeping MS ms in Nightshift.Doze: the pool's threads
//                             sleep there, no task is waited on, so only starvation adds threads, and the queue stays long
//   generated ITEMS MS        as sync-over-async, but each item calls Till.Count, a one-line method, from a method compiled
//                             at run time (as ASP.NET compiles its request delegates), into which the JIT inlines it
//   spin MS                   the pool's threads count for MS ms (busy, never blocked), and print how far
//   parent [MODE ARGS]        starts itself as a .NET child in MODE (spin 300 unless given), inheriting its environment,
//                             and waits for it
//   serve                     sync over async in rounds, printing "ready" first, until its standard input closes
using System.Diagnostics;
using ConcurrencyLab.WhyTargets;

var mode = args.Length > 0 ? args[0] : string.Empty;
int Number(int at, int fallback) => args.Length > at && int.TryParse(args[at], out var n) ? n : fallback;
switch (mode)
{
    case "sync-over-async":
        Task.WaitAll([.. Enumerable.Range(0, Number(1, 64)).Select(_ => Task.Run(() => OrderDesk.LoadBlocking(Number(2, 300))))]);
        return 0;
    case "lock":
        Task.WaitAll([.. Enumerable.Range(0, Number(1, 8)).Select(_ => Task.Run(() => Ledger.Post(Number(2, 100))))]);
        return 0;
    case "sleep":
        Task.WaitAll([.. Enumerable.Range(0, Number(1, 200)).Select(_ => Task.Run(() => Nightshift.Doze(Number(2, 1000))))]);
        return 0;
    case "generated":
    {
        var ms = System.Linq.Expressions.Expression.Parameter(typeof(int), "ms");
        var handler = System.Linq.Expressions.Expression.Lambda<Func<int, int>>(
            System.Linq.Expressions.Expression.Call(typeof(Till).GetMethod(nameof(Till.Count))!, ms), ms).Compile();
        Task.WaitAll([.. Enumerable.Range(0, Number(1, 48)).Select(_ => Task.Run(() => handler(Number(2, 300))))]);
        return 0;
    }

    case "spin":
        long counted = 0;
        Parallel.For(0, Environment.ProcessorCount, _ => Interlocked.Add(ref counted, Abacus.Spin(Number(1, 2000))));
        Console.WriteLine($"counted {counted}");
        return 0;
    case "parent":
        // A .NET child started as most programs start one, inheriting this process's environment.
        using (var child = Process.Start(new ProcessStartInfo(Environment.ProcessPath!,
            [typeof(OrderDesk).Assembly.Location, .. args.Length > 1 ? args[1..] : ["spin", "300"]]) { UseShellExecute = false })!)
        {
            child.WaitForExit();
            return child.ExitCode;
        }

    case "serve":
        using (var stop = new CancellationTokenSource())
        {
            _ = Task.Run(() =>
            {
                while (Console.In.ReadLine() is not null)
                {
                }

                stop.Cancel();
            });
            Console.WriteLine("ready");
            while (!stop.IsCancellationRequested)
            {
                Task.WaitAll([.. Enumerable.Range(0, 16).Select(_ => Task.Run(() => OrderDesk.LoadBlocking(200)))]);
            }
        }

        return 0;
    default:
        Console.Error.WriteLine("usage: sync-over-async ITEMS MS | lock ITEMS MS | sleep ITEMS MS | generated ITEMS MS | spin MS | parent [MODE ARGS] | serve");
        return 2;
}

namespace ConcurrencyLab.WhyTargets
{
    /// <summary>Loads an order the wrong way: waiting, on a pool thread, for a task that needs a timer to finish.</summary>
    internal static class OrderDesk
    {
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        public static string LoadBlocking(int ms) => LoadAsync(ms).Result; // why: the pool blocks here

        private static async Task<string> LoadAsync(int ms)
        {
            await Task.Delay(ms).ConfigureAwait(false);
            return "order";
        }
    }

    /// <summary>Posts to a ledger one at a time, under one lock.</summary>
    internal static class Ledger
    {
        // A plain object, as most code's locks are: for a lock on a System.Threading.Lock the C# compiler (SDK 10) emits
        // no sequence point, and a wait there is placed on the line before.
        private static readonly object Gate = new();

        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        public static void Post(int ms)
        {
            lock (Gate) // why: the pool waits for the lock here
            {
                Thread.Sleep(ms); // why: the lock is held here
            }
        }
    }

    /// <summary>Counts the till the wrong way, in one line: small enough for the JIT to inline into its caller.</summary>
    public static class Till
    {
        public static int Count(int ms) => Delayed(ms).Result; // why: the till blocks here

        private static async Task<int> Delayed(int ms)
        {
            await Task.Delay(ms).ConfigureAwait(false);
            return 7;
        }
    }

    /// <summary>Waits the old way: a pool thread put to sleep.</summary>
    internal static class Nightshift
    {
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        public static void Doze(int ms) => Thread.Sleep(ms); // why: the pool sleeps here
    }

    /// <summary>Counts, on the CPU, for a while.</summary>
    internal static class Abacus
    {
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        public static long Spin(int ms)
        {
            var clock = Stopwatch.StartNew();
            long count = 0;
            while (clock.ElapsedMilliseconds < ms)
            {
                count++;
            }

            return count;
        }
    }
}
