using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>conclab started as a real process and left running, for tests that signal or kill it as a user (or a CI job) would.</summary>
internal sealed class RunningProgram : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly StringBuilder _error = new();

    private RunningProgram(Process process)
    {
        _process = process;
        _process.OutputDataReceived += (_, e) => Append(_output, e.Data);
        _process.ErrorDataReceived += (_, e) => Append(_error, e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public int Id => _process.Id;

    public string Output => Read(_output);

    public string Error => Read(_error);

    /// <summary>Starts conclab with <paramref name="args"/> in <paramref name="workingDirectory"/>.</summary>
    public static RunningProgram StartConclab(string workingDirectory, params string[] args) => StartConclab(workingDirectory, null, args);

    /// <summary>Starts conclab with <paramref name="args"/> in <paramref name="workingDirectory"/>, with <paramref name="environment"/> added to its environment.</summary>
    public static RunningProgram StartConclab(string workingDirectory, IReadOnlyDictionary<string, string>? environment, params string[] args)
    {
        Assert.True(File.Exists(ProgramRunner.ConclabDll), $"{ProgramRunner.ConclabDll} was not built");
        var info = new ProcessStartInfo("dotnet") { WorkingDirectory = workingDirectory, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(ProgramRunner.ConclabDll);
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        return new RunningProgram(Process.Start(info)!);
    }

    /// <summary>Starts <paramref name="program"/> with <paramref name="args"/> in <paramref name="workingDirectory"/>: a service a test loads itself.</summary>
    public static RunningProgram Start(string program, string workingDirectory, IEnumerable<string> args)
    {
        var info = new ProcessStartInfo(program) { WorkingDirectory = workingDirectory, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        return new RunningProgram(Process.Start(info)!);
    }

    /// <summary>Sends <paramref name="signal"/> (2 SIGINT, 9 SIGKILL, 15 SIGTERM) to the program.</summary>
    public void Signal(int signal) => Assert.Equal(0, Kill(_process.Id, signal));

    /// <summary>Waits for the program to end, at most <paramref name="limit"/>; its exit code, or null when it had not ended.</summary>
    public async Task<int?> WaitAsync(TimeSpan limit)
    {
        using var deadline = new CancellationTokenSource(limit);
        try
        {
            await _process.WaitForExitAsync(deadline.Token);
            _process.WaitForExit();
            return _process.ExitCode;
        }
        catch (OperationCanceledException)
        {
            return null;
        }
    }

    /// <summary>Waits until <paramref name="condition"/> holds, at most <paramref name="limit"/>; whether it did.</summary>
    public static async Task<bool> UntilAsync(Func<bool> condition, TimeSpan limit)
    {
        var started = Stopwatch.GetTimestamp();
        while (!condition())
        {
            if (Stopwatch.GetElapsedTime(started) > limit)
            {
                return false;
            }

            await Task.Delay(20);
        }

        return true;
    }

    /// <summary>Whether process <paramref name="id"/> is alive (not a zombie).</summary>
    public static bool IsAlive(int id)
    {
        var status = $"/proc/{id}/status";
        try
        {
            return File.Exists(status) && !File.ReadLines(status).Any(l => l.StartsWith("State:", StringComparison.Ordinal) && l.Contains("zombie", StringComparison.Ordinal));
        }
        catch (IOException)
        {
            return false;
        }
    }

    /// <summary>The ids of the live descendants of process <paramref name="id"/>: its children, theirs, and so on.</summary>
    public static IReadOnlyList<int> DescendantsOf(int id)
    {
        var parents = new Dictionary<int, int>();
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(folder), out var process) && IsAlive(process) && ParentOf(process) is { } parent)
            {
                parents[process] = parent;
            }
        }

        var found = new List<int>();
        var frontier = new List<int> { id };
        while (frontier.Count > 0)
        {
            frontier = [.. parents.Where(p => frontier.Contains(p.Value)).Select(p => p.Key)];
            found.AddRange(frontier);
        }

        return found;
    }

    private static int? ParentOf(int id)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{id}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return int.Parse(fields[1], System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            return null;
        }
    }

    /// <summary>The ids of every process whose command line names <paramref name="text"/>.</summary>
    public static IReadOnlyList<int> ProcessesWith(string text) =>
    [
        .. Directory.EnumerateDirectories("/proc")
            .Select(d => int.TryParse(Path.GetFileName(d), out var id) ? id : 0)
            .Where(id => id > 0 && id != Environment.ProcessId && IsAlive(id))
            .Where(id =>
            {
                try
                {
                    return File.ReadAllText($"/proc/{id}/cmdline").Contains(text, StringComparison.Ordinal);
                }
                catch (IOException)
                {
                    return false;
                }
            }),
    ];

    public override string ToString() => $"--- stdout\n{Output}\n--- stderr\n{Error}";

    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
            }
        }
        catch (InvalidOperationException)
        {
        }

        _process.Dispose();
    }

    private static void Append(StringBuilder text, string? line)
    {
        if (line is not null)
        {
            lock (text)
            {
                text.AppendLine(line);
            }
        }
    }

    private static string Read(StringBuilder text)
    {
        lock (text)
        {
            return text.ToString();
        }
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);
}
