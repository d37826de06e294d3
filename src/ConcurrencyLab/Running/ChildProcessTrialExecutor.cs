using System.Diagnostics;
using System.Text;
using System.Text.Json;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs each trial in a fresh process, so no variant inherits threads another one made the pool inject.
/// The child times its own measured region against the timeout and writes a timed-out result itself; one
/// that outlives the timeout, its start-up allowance and a grace besides (hung past its own watchdog) is
/// killed with its whole process tree and reported as timed out.
/// </summary>
internal sealed class ChildProcessTrialExecutor : ITrialExecutor
{
    private const int KeptErrorCharacters = 2000;

    // How long past its own limits the parent lets a child write its timeout before killing it.
    private static readonly TimeSpan KillGrace = TimeSpan.FromSeconds(5);
    private readonly SelfLauncher _launcher;

    public ChildProcessTrialExecutor(SelfLauncher launcher) => _launcher = launcher ?? throw new ArgumentNullException(nameof(launcher));

    /// <inheritdoc/>
    public bool Isolated => true;

    /// <inheritdoc/>
    public async Task<TrialResult> RunAsync(Scenario scenario, TrialRequest request, TimeSpan timeout, Action<int>? processStarted = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(request);
        var resultPath = Path.Combine(Path.GetTempPath(), $"conclab-trial-{Environment.ProcessId}-{Guid.NewGuid():N}.json");
        var info = _launcher.CreateStartInfo(
        [
            TrialHost.RequestArgument,
            JsonSerializer.Serialize(request, LabJson.Compact),
            TrialHost.ResultArgument,
            resultPath,
        ]);
        RunJournal.Current?.Hand(info);

        var errors = new StringBuilder();
        using var process = new Process { StartInfo = info };

        // Drain both pipes: a child blocked on a full pipe would look like a hang.
        process.OutputDataReceived += static (_, _) => { };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                return;
            }

            lock (errors)
            {
                errors.AppendLine(e.Data);
                if (errors.Length > KeptErrorCharacters * 2)
                {
                    errors.Remove(0, errors.Length - KeptErrorCharacters);
                }
            }
        };

        try
        {
            try
            {
                process.Start();
            }
            catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or InvalidOperationException)
            {
                return Failed($"could not start the trial process '{info.FileName}': {ex.Message}");
            }

            var startTime = ProcessIdentity.StartTimeOf(process.Id);
            processStarted?.Invoke(process.Id);
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();

            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            var limit = timeout + RunOptions.TrialStartUpAllowance + KillGrace;
            deadline.CancelAfter(limit);
            try
            {
                await process.WaitForExitAsync(deadline.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                Kill(process);
                ProcessIdentity.RemoveDiagnosticsSocket(process.Id, startTime);
                cancellationToken.ThrowIfCancellationRequested();
                return TrialResult.Unmeasured(
                    TrialStatus.Timeout,
                    $"killed after {TrialWatch.Seconds(limit)} s: its process outlived the trial timeout of {TrialWatch.Seconds(timeout)} s, its start-up allowance of {TrialWatch.Seconds(RunOptions.TrialStartUpAllowance)} s and {TrialWatch.Seconds(KillGrace)} s besides",
                    isolated: true) with { Repeat = request.Repeat };
            }

            // Let the asynchronous readers reach the end of both pipes.
            process.WaitForExit();

            if (process.ExitCode != 0 || !File.Exists(resultPath))
            {
                string tail;
                lock (errors)
                {
                    tail = LastLine(errors.ToString());
                }

                return Failed($"the trial process exited with code {process.ExitCode}{(tail.Length > 0 ? ": " + tail : string.Empty)}");
            }

            var result = JsonSerializer.Deserialize<TrialResult>(await File.ReadAllTextAsync(resultPath, cancellationToken).ConfigureAwait(false), LabJson.Options);
            return result is null ? Failed("the trial process wrote an empty result") : result with { Repeat = request.Repeat };
        }
        finally
        {
            TryDelete(resultPath);
            TryDelete(resultPath + ".partial");
        }

        TrialResult Failed(string error) => TrialResult.Unmeasured(TrialStatus.Failed, error, isolated: true) with { Repeat = request.Repeat };
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
        }
        catch (InvalidOperationException)
        {
            // It exited between the timeout and the kill.
        }
    }

    private static string LastLine(string text)
    {
        var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

        // An unhandled exception prints its message on the first line; later lines are the stack.
        var exception = lines.FirstOrDefault(l => l.StartsWith("Unhandled exception", StringComparison.Ordinal));
        return exception ?? lines.LastOrDefault() ?? string.Empty;
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
