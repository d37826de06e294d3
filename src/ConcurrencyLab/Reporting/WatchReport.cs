using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// The report of a program <c>conclab why</c> watched: what was watched and how the window ended, the runtime's account
/// in a sentence, where its threads were held (each site with its file and line, and the lock's holder), and the
/// charts. No ideal, no ranking: one program's account is the answer.
/// </summary>
internal static class WatchReport
{
    /// <summary>The blocks of <paramref name="scenario"/>'s report, a watch of <paramref name="watched"/>.</summary>
    public static IReadOnlyList<Block> Of(ScenarioResult scenario, WatchedProgram watched)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(watched);
        var blocks = new List<Block>();
        var seconds = Piece.Fixed(watched.WindowMs / 1000, "0.##");
        var pid = Piece.Code(watched.ProcessId.ToString(CultureInfo.InvariantCulture));
        var command = Piece.Code(string.Join(' ', watched.CommandLine));
        var inlining = watched.InliningOff ? Statement.Plain(", the JIT's inlining off") : Statement.Plain(string.Empty);
        var how = watched.Launched
            ? Statement.Of($"Watched {command} (process {pid}) from its runtime's start{inlining}, for {seconds} s: {watched.Ended}.")
            : Statement.Of($"Watched process {pid} ({command}), attached, for {seconds} s: {watched.Ended}.");
        blocks.Add(new Passage([how]));

        Describe(scenario.Variants.Count > 0 ? scenario.Variants[0] : null, blocks);

        // Each .NET child the program started, watched from when it was reached: the variants after the first.
        foreach (var (child, variant) in watched.Children.Zip(scenario.Variants.Skip(1)))
        {
            var childCommand = Piece.Code(string.Join(' ', child.CommandLine));
            var childPid = Piece.Code(child.ProcessId.ToString(CultureInfo.InvariantCulture));
            blocks.Add(new Passage([Statement.Of(
                $"It started {childCommand} (process {childPid}), watched from {Piece.Fixed(child.StartMs / 1000, "0.##")} s in, for " +
                $"{Piece.Fixed(child.WindowMs / 1000, "0.##")} s: {child.Ended}.")]));
            Describe(variant, blocks);
        }

        if (scenario.Notes.Count > 0)
        {
            blocks.Add(new BulletList("notes", null, [.. scenario.Notes.Select(n => Statement.Plain(n))], Audience.Full));
        }

        blocks.Add(new ChartSet(scenario));
        return blocks;
    }

    // One process's account: the sentence, then where its threads were held.
    private static void Describe(VariantResult? variant, List<Block> blocks)
    {
        if (variant is not null && RuntimeAccountText.Describe(variant) is { } said)
        {
            blocks.Add(new Passage([said]));
        }
        else
        {
            blocks.Add(new Passage([Statement.Plain("The runtime's account holds nothing: no event was read in the window.")]));
        }

        var trial = variant?.Trials.FirstOrDefault(t => t.Runtime is not null);
        if (trial?.Runtime?.Threads is { Sites.Count: > 0 } threads)
        {
            var sites = threads.Sites.Select(s => Statement.Of(
                $"{Piece.Ms(s.Ms)} ms {s.State} at {RuntimeAccountText.Where(s)}")).ToList();
            blocks.Add(new BulletList("runtime", Statement.Plain("Where threads were held, from the stack samples (the longest first):"), sites));
        }
        else if (trial?.Runtime?.Threads is { UnnamedSamples: > 0 })
        {
            blocks.Add(new Passage([Statement.Plain("Where threads were held cannot be said: the samples' frames were never named.")]));
        }
        else if (trial?.Runtime?.Threads is { Caller.BlockedMs: > 0 } waited)
        {
            // Its work never blocked, but its main thread waited (for its work, or for a child): said, not hidden.
            var ms = Piece.Ms(waited.Caller!.BlockedMs);
            blocks.Add(new Passage([Statement.Of(
                $"No thread of its work was held anywhere the stack samples could see; its main thread waited {ms} ms.")]));
        }
        else if (trial?.Runtime?.Threads is not null)
        {
            blocks.Add(new Passage([Statement.Plain("No thread of the program was held anywhere the stack samples could see: it did not block.")]));
        }
    }
}
