namespace ConcurrencyLab.CommandLine.Why;

/// <summary>Whether a command can be started: a path to a file, or a name found on <c>PATH</c>.</summary>
internal static class Executable
{
    /// <summary>Why <paramref name="command"/> cannot be started, in one line; null when it can be.</summary>
    public static string? Problem(string command)
    {
        ArgumentNullException.ThrowIfNull(command);
        if (command.Length == 0 || command.Contains('\0', StringComparison.Ordinal))
        {
            return "the command after -- is empty";
        }

        if (command.Contains(Path.DirectorySeparatorChar, StringComparison.Ordinal) || command.Contains(Path.AltDirectorySeparatorChar,
            StringComparison.Ordinal))
        {
            return File.Exists(command) ? null
                : Directory.Exists(command) ? $"{command} is a folder, not a program"
                : $"there is no program {command}";
        }

        var path = Environment.GetEnvironmentVariable("PATH") ?? string.Empty;
        var found = path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Any(folder => File.Exists(Path.Combine(folder, command))
                || (OperatingSystem.IsWindows() && File.Exists(Path.Combine(folder, command + ".exe"))));
        return found ? null : $"there is no program {command} on PATH";
    }
}
