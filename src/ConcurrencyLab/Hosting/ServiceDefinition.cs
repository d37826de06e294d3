namespace ConcurrencyLab.Hosting;

/// <summary>
/// A service a scenario runs in a process of its own, so its threads and CPU are measured apart from the
/// client's (the fanout experiment's HTTP services are the lab's own). A scenario lists the services it owns
/// in <see cref="Scenarios.Scenario.Services"/>; a service process, started with <see cref="Argument"/>, the
/// service's name and its settings as JSON, finds it there, so the hosting code knows no service by name.
/// </summary>
internal abstract class ServiceDefinition
{
    /// <summary>The first argument of a service process, followed by the service's name and its settings as JSON.</summary>
    public const string Argument = "--conclab-service";

    /// <summary>Exit code of a service process started with arguments it does not understand.</summary>
    public const int BadRequestExitCode = 3;

    private protected ServiceDefinition(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        Name = name;
    }

    /// <summary>The service's name, unique among the program's services.</summary>
    public string Name { get; }

    /// <summary>Whether <paramref name="args"/> are a service process's arguments.</summary>
    internal static bool IsInvocation(IReadOnlyList<string> args) => args is not null && args.Count > 0 && args[0] == Argument;

    /// <summary>Serves, in this process, with the settings given as JSON, until the parent closes standard input; returns the exit code.</summary>
    internal abstract Task<int> ServeAsync(string settingsJson);
}
