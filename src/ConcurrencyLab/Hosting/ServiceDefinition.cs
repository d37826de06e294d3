using System.Text.Json;
using ConcurrencyLab.Serialization;
using Microsoft.AspNetCore.Builder;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// An HTTP service a scenario runs in a process of its own (see <see cref="ServiceProcess"/>), so its threads
/// and CPU are measured apart from the client's: its name on the service process's command line, and how it
/// maps its endpoints given its settings. A scenario lists the services it owns in
/// <see cref="Scenarios.Scenario.Services"/>; the service process finds them there, so the hosting code
/// knows no service by name.
/// </summary>
public abstract class ServiceDefinition
{
    private protected ServiceDefinition(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        Name = name;
    }

    /// <summary>The service's name, unique among the program's services.</summary>
    public string Name { get; }

    /// <summary>Maps the service's endpoints onto <paramref name="app"/>, reading its settings from JSON; throws <see cref="ArgumentException"/> or <see cref="JsonException"/> for settings it cannot serve with.</summary>
    internal abstract void Map(WebApplication app, string settingsJson);
}

/// <summary>A <see cref="ServiceDefinition"/> whose settings are a <typeparamref name="TSettings"/>, sent to its process as JSON.</summary>
/// <typeparam name="TSettings">What the service needs to know, such as the delays it answers with.</typeparam>
public sealed class ServiceDefinition<TSettings> : ServiceDefinition
{
    private readonly Action<WebApplication, TSettings> _map;

    /// <summary>Defines service <paramref name="name"/>, which <paramref name="map"/> sets up on an app given its settings.</summary>
    public ServiceDefinition(string name, Action<WebApplication, TSettings> map)
        : base(name)
    {
        ArgumentNullException.ThrowIfNull(map);
        _map = map;
    }

    /// <summary>The settings as they travel to the service process.</summary>
    internal static string Serialize(TSettings settings) => JsonSerializer.Serialize(settings, LabJson.Compact);

    internal override void Map(WebApplication app, string settingsJson) =>
        _map(app, JsonSerializer.Deserialize<TSettings>(settingsJson, LabJson.Options) ?? throw new ArgumentException($"The {Name} service's settings are missing: {settingsJson}"));
}
