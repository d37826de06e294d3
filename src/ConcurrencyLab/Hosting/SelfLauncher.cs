using System.Diagnostics;
using System.Reflection;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// How to start the current program again as a child: its executable, and the assembly to hand to the
/// <c>dotnet</c> host when the program was started through it. Arguments go in an argument list; no shell
/// is involved, so nothing in them is interpreted.
/// </summary>
internal sealed class SelfLauncher
{
    /// <summary>Starts <paramref name="executable"/> with <paramref name="leadingArguments"/> before each trial's arguments.</summary>
    public SelfLauncher(string executable, IReadOnlyList<string>? leadingArguments = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(executable);
        Executable = executable;
        LeadingArguments = leadingArguments ?? [];
    }

    /// <summary>The program file to start.</summary>
    public string Executable { get; }

    /// <summary>Arguments placed before a trial's own (the entry assembly, under the dotnet host).</summary>
    public IReadOnlyList<string> LeadingArguments { get; }

    /// <summary>Relaunches the current process's program.</summary>
    public static SelfLauncher Current()
    {
        var processPath = Environment.ProcessPath ?? throw new InvalidOperationException("The path of the current program is unknown.");
        var entry = Assembly.GetEntryAssembly()?.Location;

        // Under 'dotnet app.dll' the process is the host; the app is the entry assembly.
        if (string.Equals(Path.GetFileNameWithoutExtension(processPath), "dotnet", StringComparison.OrdinalIgnoreCase)
            && !string.IsNullOrEmpty(entry))
        {
            return new SelfLauncher(processPath, [entry]);
        }

        return new SelfLauncher(processPath);
    }

    /// <summary>
    /// A start description with redirected output and the given arguments; standard input is redirected too
    /// when <paramref name="redirectInput"/> is set (a service process lives as long as it stays open).
    /// </summary>
    public ProcessStartInfo CreateStartInfo(IEnumerable<string> arguments, bool redirectInput = false)
    {
        var info = new ProcessStartInfo(Executable)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = redirectInput,
            CreateNoWindow = true,
        };
        foreach (var argument in LeadingArguments.Concat(arguments))
        {
            info.ArgumentList.Add(argument);
        }

        return info;
    }
}
