using System.Diagnostics;
using System.Reflection;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>Starts the programs a user runs (conclab, the sample) as real processes and collects what they print.</summary>
internal static class ProgramRunner
{
    public static readonly string Configuration =
        typeof(ProgramRunner).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Debug";

    public static string RepositoryRoot { get; } = FindRoot();

    public static string ConclabDll => Path.Combine(RepositoryRoot, "src", "ConcurrencyLab.Cli", "bin", Configuration, "net10.0", "conclab.dll");

    /// <summary>The program of workloads made to produce known runtime events (tests/ConcurrencyLab.TestWorkloads).</summary>
    public static string TestWorkloadsDll => Path.Combine(RepositoryRoot, "tests", "ConcurrencyLab.TestWorkloads", "bin", Configuration, "net10.0", "ConcurrencyLab.TestWorkloads.dll");

    public static Task<Result> ConclabAsync(string workingDirectory, params string[] args) => RunAsync(ConclabDll, workingDirectory, args);

    public static Task<Result> RunAsync(string dll, string workingDirectory, IEnumerable<string> args, TimeSpan? timeout = null)
    {
        Assert.True(File.Exists(dll), $"{dll} was not built");
        return RunProgramAsync("dotnet", workingDirectory, args.Prepend(dll), timeout);
    }

    /// <summary>
    /// Runs <paramref name="program"/> to its end, collecting what it prints; one that outlives
    /// <paramref name="timeout"/> (3 minutes unless told) is killed with its children, and the test fails.
    /// </summary>
    public static async Task<Result> RunProgramAsync(string program, string workingDirectory, IEnumerable<string> args, TimeSpan? timeout = null, IReadOnlyDictionary<string, string>? environment = null)
    {
        var info = new ProcessStartInfo(program)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        var limit = timeout ?? TimeSpan.FromMinutes(3);
        using var deadline = new CancellationTokenSource(limit);
        try
        {
            await process.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{Path.GetFileName(program)} {string.Join(' ', info.ArgumentList)} did not finish in {limit.TotalSeconds:0} s");
        }

        return new Result(process.ExitCode, await output, await error);
    }

    private static string FindRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "ConcurrencyLab.slnx")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("The repository root (ConcurrencyLab.slnx) was not found.");
    }

    public sealed record Result(int ExitCode, string Output, string Error)
    {
        public override string ToString() => $"exit {ExitCode}\n--- stdout\n{Output}\n--- stderr\n{Error}";
    }
}

/// <summary>A temporary working folder, removed afterwards.</summary>
internal sealed class TempFolder : IDisposable
{
    public TempFolder() => Directory.CreateDirectory(Path);

    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "conclab-it-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
