using Microsoft.Extensions.Logging;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// The library's log, for a person at the command line: warnings and worse, one line each on standard error,
/// prefixed as conclab's own messages are. Whatever the library logs is also in the results' notes.
/// </summary>
internal sealed class ConsoleErrorLogger : ILogger
{
    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Warning;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        ArgumentNullException.ThrowIfNull(formatter);
        if (IsEnabled(logLevel))
        {
            Console.Error.WriteLine(ErrorLine.Format(formatter(state, exception)));
        }
    }
}
