using ConcurrencyLab.Analysis;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// The runtime's account of a variant (<see cref="AccountSummary"/>, its median trial's) in a sentence, so a reader
/// does not have to add up the events; written the same in every report.
/// </summary>
internal static class RuntimeAccountText
{
    /// <summary>
    /// Whether the pool added threads because work waited, in the variant's median trial or in the service it
    /// drove: the accounts a console shows, since they explain the thread columns.
    /// </summary>
    public static bool Notable(VariantResult variant) => Accounts.Of(variant) is { } account && Notable(account);

    /// <summary>Whether <paramref name="account"/> shows the pool raising its target because work waited, in the trial or its service.</summary>
    public static bool Notable(AccountSummary account) =>
        new[] { account.Process, account.Service }.Any(a => a is { } p && (p.StarvationRaises > 0 || p.BlockingRaises > 0));

    /// <summary>The sentence for <paramref name="variant"/>, or null when none of its ok trials has an account.</summary>
    public static Statement? Describe(VariantResult variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        if (Accounts.Of(variant) is not { } account)
        {
            return null;
        }

        var service = account.Service is { } s ? Statement.Of($"; in the {account.ServiceName} service, {Parts(s, account.WallMs, service: true)}")
            : Statement.Plain(string.Empty);
        return Statement.Of($"{Piece.Variant(variant.Name)} ({Piece.Ms(account.WallMs)} ms): {Parts(account.Process, account.WallMs)}{service}.");
    }

    /// <summary>
    /// What one process's account says: the pool's decisions, time blocked, and the GC. A <paramref name="service"/>
    /// has no caller waiting for a batch, so its waits are all the work's.
    /// </summary>
    internal static Statement Parts(ProcessAccount account, double wallMs, bool service = false)
    {
        ArgumentNullException.ThrowIfNull(account);
        var seconds = wallMs / 1000;
        var starvation = account.StarvationRaises;
        var (start, peak, end) = (account.PoolTargetStart, account.PoolTargetPeak, account.PoolTargetEnd);
        var parts = new List<Statement>();
        var pool = (start, peak, end) switch
        {
            ({ } from, { } top, { } to) when account.PeakStandsOut
                => Statement.Of($"the pool's thread target rose from {Piece.Count(from)} to {Piece.Count(top)} ({Piece.Count(to)} at the end)"),
            ({ } from, _, { } to) when from != to => Statement.Of($"the pool's thread target went from {Piece.Count(from)} to {Piece.Count(to)}"),

            // Its start unknown (a program watched from its start, whose first target the runtime did not announce):
            // what it reached, never "stayed", when it moved.
            (null, { } top, { } to) when top != to || account.StarvationRaises + account.BlockingRaises > 0
                => Statement.Of($"the pool's thread target reached {Piece.Count(top)} ({Piece.Count(to)} at the end)"),
            _
                => end is { } stayed ? Statement.Of($"the pool's thread target stayed at {Piece.Count(stayed)}")
                    : Statement.Plain("the pool's thread target stayed at its start"),
        };

        // Raises of the target, by reason, and hill climbing's moves: only those there were, so a calm pool's
        // sentence is its target alone.
        var perSecond = seconds > 0 ? starvation / seconds : 0;
        var rate = starvation > 0 && seconds > 0 ? Statement.Of($", about {Piece.Fixed(perSecond, perSecond >= 10 ? "0" : "0.#")} a second")
            : Statement.Plain(string.Empty);
        var moves = new List<Statement>();
        if (starvation > 0)
        {
            moves.Add(Statement.Of($"raised {Times(starvation)} for starvation{rate}"));
        }

        if (account.BlockingRaises > 0)
        {
            moves.Add(Statement.Of($"{(moves.Count == 0 ? "raised " : string.Empty)}{Times(account.BlockingRaises)} for blocking on tasks"));
        }

        if (account.HillClimbingMoves > 0)
        {
            moves.Add(Count(account.HillClimbingMoves, "hill-climbing move"));
        }

        parts.Add(moves.Count == 0 ? pool : Statement.Of($"{pool}: {Statement.Join(", ", moves)}"));
        if (account.QueuePeak is { } queue)
        {
            var done = account.CompletedPerSecond is { } completed
                ? Statement.Of($", {Piece.Fixed(completed, completed >= 10 ? "0" : "0.#")} completed a second")
                : Statement.Plain(string.Empty);
            parts.Add(Statement.Of($"its queue peaked at {Count(queue, "work item")} waiting (read once a second){done}"));
        }

        // The work's blocking, and apart from it the caller's wait for its batch (the join), where the two were told
        // apart; an account that could not tell them apart says its total includes the join.
        if (account.LockContentions is { } locks && (account.WorkWaits ?? account.Waits) is { } waits && locks.Count + waits.Count > 0)
        {
            var kinds = new List<Statement>();
            if (locks.Count > 0)
            {
                kinds.Add(Statement.Of($"{Count(locks.Count, "lock contention")} for {Piece.Ms(locks.TotalMs)} ms"));
            }

            if (waits.Count > 0)
            {
                kinds.Add(Statement.Of($"{Count(waits.Count, "wait")} for {Piece.Ms(waits.TotalMs)} ms"));
            }

            var who = account.WorkWaits is null ? "threads" : "the work's threads";
            var all = account.WorkWaits is not null ? string.Empty : service ? " in all" : " in all, the caller's wait for the batch included";
            parts.Add(
                Statement.Of($"{who} blocked {Piece.Ms(locks.TotalMs + waits.TotalMs)} ms{all} ({Statement.Join(", ", kinds)}, the longest " +
                    $"{Piece.Ms(Math.Max(locks.LongestMs, waits.LongestMs))} ms)"));
        }

        if (account.Join is { Count: > 0 } join)
        {
            parts.Add(
                Statement.Of($"the caller waited {Piece.Ms(join.TotalMs)} ms for its " +
                    $"batch{(join.Count > 1 ? Statement.Of($" in {Piece.Count(join.Count)} waits") : Statement.Plain(string.Empty))}"));
        }

        if (account.Threads is { } threads)
        {
            parts.Add(ThreadTimeText(threads));
        }

        if (account.GcPauses is { } gc)
        {
            parts.Add(account.GcCollections == 0
                ? Statement.Plain("no garbage collection")
                : Statement.Of($"{Count(account.GcCollections, "garbage collection")}, {Piece.Ms(gc.TotalMs)} ms paused"));
        }

        return Statement.Join("; ", parts);
    }

    /// <summary>
    /// Thread time by state, from the stack samples, and where the work's threads were when not running: "from stack
    /// samples (1 ms apart), the work's threads ran 40 ms, slept 7,990 ms; 99% of it at Worker.Nap -> Thread.Sleep".
    /// </summary>
    internal static Statement ThreadTimeText(Measurement.ThreadTime threads)
    {
        ArgumentNullException.ThrowIfNull(threads);
        var states = new List<Statement>();
        void State(double ms, string verb)
        {
            if (ms > 0)
            {
                states.Add(Statement.Of($"{verb} {Piece.Ms(ms)} ms"));
            }
        }

        State(threads.Work.RunningMs, "ran");
        State(threads.Work.WaitingMs, "waited");
        State(threads.Work.SleepingMs, "slept");
        State(threads.Work.IoMs, "spent in I/O calls");
        var said = Statement.Of($"from stack samples ({Piece.Fixed(threads.IntervalMs, "0.#")} ms apart), the work's threads " +
            $"{(states.Count == 0 ? Statement.Plain("were not sampled") : Statement.Join(", ", states))}");
        if (threads.PoolBlockedShare is { } pooled)
        {
            said = Statement.Of($"{said} (the pool's threads not running {Piece.Fixed(100 * pooled, "0")}% of their time)");
        }

        if (threads.Top is var (top, share))
        {
            said = Statement.Of($"{said}; {Piece.Fixed(100 * share, "0")}% of the time not running was at {Where(top)} ({top.State})");
        }

        if (threads.UnnamedSamples > 0)
        {
            var part = 100.0 * threads.UnnamedSamples / (threads.UnnamedSamples + threads.Samples);
            said = Statement.Of($"{said}; {Piece.Count(threads.UnnamedSamples)} samples ({Piece.Fixed(part, "0")}%) are left out, their " +
                $"frames never named: the program ended while watched, before its runtime named its precompiled code");
        }

        return said;
    }

    /// <summary>
    /// Where a site blocked, as a reader looks for it: the code's method, its file and line where the PDB gave them,
    /// and the framework's method it called (<c>Worker.Fetch (Worker.cs:42) -> Task`1.get_Result</c>); for a wait to
    /// enter a lock, where the lock's owner was (<c>, the lock held by Cache.Fill (Cache.cs:31)</c>).
    /// </summary>
    internal static Statement Where(Measurement.BlockingSite site)
    {
        ArgumentNullException.ThrowIfNull(site);
        if (site.Site.Length == 0)
        {
            // Its caller inlined into a request delegate: said, with how to see it.
            return site.Generated
                ? Statement.Of($"{Piece.Code(Short(site.Api))}, called from {Inlined}")
                : Statement.Of($"{Piece.Code(Short(site.Api))}");
        }

        var owner = site.Owner is { Site.Length: > 0 } held
            ? Statement.Of($", the lock held by {Piece.Code(Short(held.Site))}{Line(held.File, held.Line)}")
            : Statement.Plain(string.Empty);
        // A site in code the trace never named has no call to name: its line alone.
        var call = site.Api.Length == 0 ? Statement.Plain(string.Empty) : Statement.Of($" -> {Piece.Code(Short(site.Api))}");
        var generated = site.Generated ? Statement.Of($", through {Inlined}") : Statement.Plain(string.Empty);
        return Statement.Of($"{Piece.Code(Short(site.Site))}{Line(site.File, site.Line)}{call}{generated}{owner}");

        static Statement Line(string? file, int? line) => file is { Length: > 0 } && line is > 0 and var number
            ? Statement.Of($" ({Piece.Code(file + ":" + number.ToString(System.Globalization.CultureInfo.InvariantCulture))})")
            : Statement.Plain(string.Empty);
    }

    // What a site made through a method generated at run time (ASP.NET's request delegates) says of the code inlined there.
    private const string Inlined = "code inlined into a method generated at run time (its method and line are not on the stack; " +
        "conclab why --no-inline names them)";

    // A method as a reader knows it: its type's last name and the method, generic arguments left out (Worker.Nap,
    // TaskAwaiter`1.GetResult).
    internal static string Short(string method)
    {
        ArgumentNullException.ThrowIfNull(method);
        var plain = new System.Text.StringBuilder(method.Length);
        var depth = 0;
        foreach (var c in method)
        {
            depth += c == '[' ? 1 : c == ']' && depth > 0 ? -1 : 0;
            if (depth == 0 && c != ']')
            {
                plain.Append(c);
            }
        }

        var parts = plain.ToString().Split('.');
        return parts.Length >= 2 ? $"{parts[^2]}.{parts[^1]}" : plain.ToString();
    }

    /// <summary>Every variant's sentence, in the tables' order; empty when no variant has an account.</summary>
    public static IReadOnlyList<Statement> Describe(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return [.. ResultColumn.Order(scenario).Select(Describe).OfType<Statement>()];
    }

    private static Statement Count(int n, string what) => Statement.Of($"{Piece.Count(n)} {what}{(n == 1 ? string.Empty : "s")}");

    private static Statement Times(int n) => n == 1 ? Statement.Plain("once") : Statement.Of($"{Piece.Count(n)} times");
}
