using System.Diagnostics;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Tests.Hosting;

/// <summary>
/// Journals no run of the lab made, generated: any owner (process 0 or 1, a live one, a dead one, a name that is no
/// number), any owner file (missing, a start time that is no number, a link), folders open to others, claims of the
/// old shape and the new, naming files beside and far from the journal, through links and climbing names, with the
/// true identities of the files they name. Cleanup must delete none of those files, and stay quick.
/// </summary>
[Collection("umask")]
public sealed class HostileJournalFuzzTests : IDisposable
{
    private const int Cases = 300;
    private const int Seed = 20261127;
    private readonly string _root = Directory.CreateTempSubdirectory("cj-").FullName;

    public void Dispose() => Directory.Delete(_root, recursive: true);

    [SkippableFact]
    public async Task NoGeneratedJournal_DeletesAFileTheLabDidNotMake()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "statx and /proc");
        var random = new Random(Seed);
        var dead = await RunJournalTests.DeadProcessIdAsync();
        var failures = new List<string>();
        for (var i = 0; i < Cases && failures.Count < 5; i++)
        {
            var temp = Directory.CreateDirectory(Path.Combine(_root, $"t{i}")).FullName;
            var outside = Directory.CreateDirectory(Path.Combine(_root, $"o{i}")).FullName;
            var victims = new List<string>();
            for (var v = 0; v < 3; v++)
            {
                var victim = Path.Combine(v == 0 ? temp : outside, $"victim-{v}.bin");
                await File.WriteAllTextAsync(victim, "keep");
                victims.Add(victim);
            }

            var empty = Directory.CreateDirectory(Path.Combine(outside, "empty")).FullName;
            var owner = random.Next(5) switch { 0 => "0", 1 => "1", 2 => Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture), 3 => "x1", _ => dead.ToString(System.Globalization.CultureInfo.InvariantCulture) };
            var journal = Path.Combine(temp, $"conclab-run-{owner}-{Guid.NewGuid():N}");
            PrivateFiles.CreateFolder(journal);
            if (random.Next(4) == 0 && !OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(journal, (UnixFileMode)Convert.ToInt32("777", 8));
            }

            switch (random.Next(4))
            {
                case 0:
                    break;
                case 1:
                    await Own(Path.Combine(journal, "owner"), random.Next(2) == 0 ? "12345" : "abc");
                    break;
                case 2:
                    File.CreateSymbolicLink(Path.Combine(journal, "owner"), victims[1]);
                    break;
                default:
                    await Own(Path.Combine(journal, "owner"), "1");
                    break;
            }

            if (random.Next(2) == 0)
            {
                await Own(Path.Combine(journal, $"process-{(random.Next(2) == 0 ? Environment.ProcessId : dead)}"), random.Next(2) == 0 ? "7" : "x");
            }

            for (var c = random.Next(1, 4); c > 0; c--)
            {
                var folder = random.Next(4) switch { 0 => temp, 1 => outside, 2 => empty, _ => Path.Combine(outside, "..", Path.GetFileName(outside)) };
                var key = Guid.NewGuid().ToString("N");
                var claim = Path.Combine(journal, $"claim-{key}.json");
                var json = random.Next(2) == 0
                    ? $$"""{"what":"x","folder":"{{folder}}","files":["victim-0.bin","victim-1.bin","../{{Path.GetFileName(outside)}}/victim-2.bin"],"removeFolder":true}"""
                    : $$"""{"what":"x","folder":"{{folder}}","removeFolder":true}""";
                if (random.Next(5) == 0)
                {
                    var elsewhere = Path.Combine(outside, $"claim-{key}.json");
                    await Own(elsewhere, json);
                    File.CreateSymbolicLink(claim, elsewhere);
                }
                else
                {
                    await Own(claim, json);
                }

                // Lines naming the victims by their true identities, written by hand: no run of the lab made them.
                var made = string.Concat(victims.Select(v => $"{(random.Next(3) == 0 ? "../" + Path.GetFileName(Path.GetDirectoryName(v)) + "/" : string.Empty)}{Path.GetFileName(v)}\t{FileFacts.Entry(v)!.Value.Identity}\n"));
                if (random.Next(3) > 0)
                {
                    await Own(Path.Combine(journal, $"claim-{key}.made"), made + $".\t{FileFacts.Entry(empty)!.Value.Identity}\n");
                }
            }

            var started = Stopwatch.GetTimestamp();
            RunJournal.RemoveLeftovers(temp);
            var elapsed = Stopwatch.GetElapsedTime(started);

            // No file the test made, and no folder, may go: nothing here was made by a run of the lab.
            var gone = victims.Where(v => !File.Exists(v)).Append(Directory.Exists(empty) ? null : empty).OfType<string>().ToList();
            if (gone.Count > 0 || elapsed > TimeSpan.FromSeconds(5))
            {
                failures.Add($"case {i} (owner {owner}): deleted {string.Join(", ", gone)} in {elapsed.TotalMilliseconds:0} ms");
            }
        }

        Assert.True(failures.Count == 0, string.Join("\n", failures));
    }

    private static async Task Own(string path, string text)
    {
        await File.WriteAllTextAsync(path, text);
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        }
    }
}
