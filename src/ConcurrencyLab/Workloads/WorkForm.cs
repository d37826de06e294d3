namespace ConcurrencyLab.Workloads;

/// <summary>The shape of the call that performs one work item.</summary>
public enum WorkForm
{
    /// <summary>A blocking call: the calling thread is held until the item is done.</summary>
    Sync,

    /// <summary>The task-based asynchronous pattern: a call returning a task.</summary>
    Tap,

    /// <summary>The asynchronous programming model: a Begin/End pair with a callback.</summary>
    Apm,
}

/// <summary>Names of <see cref="WorkForm"/> values as they appear in variant names.</summary>
internal static class WorkForms
{
    /// <summary>All forms, in the order they are listed.</summary>
    public static IReadOnlyList<WorkForm> All { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    /// <summary>The lowercase suffix used in variant names: <c>sync</c>, <c>tap</c> or <c>apm</c>.</summary>
    public static string ToSuffix(this WorkForm form) => form switch
    {
        WorkForm.Sync => "sync",
        WorkForm.Tap => "tap",
        WorkForm.Apm => "apm",
        _ => throw new ArgumentOutOfRangeException(nameof(form)),
    };

    /// <summary>How a variant's description says the form: <c>blocking calls</c>, <c>Task-returning calls</c>, <c>Begin/End calls</c>.</summary>
    public static string Describe(this WorkForm form) => form switch
    {
        WorkForm.Sync => "blocking calls",
        WorkForm.Tap => "Task-returning calls",
        WorkForm.Apm => "Begin/End calls",
        _ => throw new ArgumentOutOfRangeException(nameof(form)),
    };

    /// <summary>Parses a suffix written by <see cref="ToSuffix"/>.</summary>
    public static bool TryParse(string text, out WorkForm form)
    {
        foreach (var candidate in All)
        {
            if (string.Equals(candidate.ToSuffix(), text, StringComparison.OrdinalIgnoreCase))
            {
                form = candidate;
                return true;
            }
        }

        form = default;
        return false;
    }
}
