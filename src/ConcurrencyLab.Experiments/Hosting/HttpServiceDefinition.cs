using System.Text.Json;
using ConcurrencyLab.Serialization;
using Microsoft.AspNetCore.Builder;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Experiments.Hosting;

/// <summary>
/// An HTTP service on Kestrel whose settings are a <typeparamref name="TSettings"/>, sent to its process as JSON
/// (see <see cref="ServiceHost"/> for the process and <see cref="ServiceProcess"/> for its parent's side).
/// </summary>
/// <typeparam name="TSettings">What the service needs to know, such as the delays it answers with.</typeparam>
internal sealed class ServiceDefinition<TSettings> : ServiceDefinition
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

    /// <summary>Maps the service's endpoints onto <paramref name="app"/>; throws <see cref="ArgumentException"/> or
    /// <see cref="JsonException"/> for settings it cannot serve with.</summary>
    internal void Map(WebApplication app, string settingsJson) =>
        _map(app, JsonSerializer.Deserialize<TSettings>(settingsJson, LabJson.Options)
            ?? throw new ArgumentException($"The {Name} service's settings are missing: {settingsJson}"));

    /// <summary>Maps the service's endpoints onto <paramref name="app"/> for <paramref name="settings"/>; throws
    /// <see cref="ArgumentException"/> for settings it cannot serve with.</summary>
    internal void Map(WebApplication app, TSettings settings) => _map(app, settings);

    internal override Task<int> ServeAsync(string settingsJson) => ServiceHost.ServeAsync(this, settingsJson);
}
