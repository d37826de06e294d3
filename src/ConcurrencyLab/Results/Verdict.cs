namespace ConcurrencyLab.Results;

/// <summary>What the lab says of a published claim on one run's results.</summary>
internal enum Verdict
{
    /// <summary>The run met the claim's conditions and its measurements bear the claim out.</summary>
    Holds,

    /// <summary>The run met the claim's conditions and its measurements contradict the claim, or fall outside its band.</summary>
    DoesNotHold,

    /// <summary>It holds under a condition the result names (some processor counts, one form), and not otherwise.</summary>
    HoldsOnly,

    /// <summary>
    /// The run met the claim's conditions but cannot decide it: an interval too wide to tell, a tie at a ceiling the
    /// run cannot exceed, a variant with no ok trial; or the claim needs what this machine cannot give (a disk-bound
    /// machine, Windows' overlapped I/O). The reason says which.
    /// </summary>
    CouldNotJudge,

    /// <summary>The run did not meet the claim's conditions (other parameters, other variants): it did not put the claim to the test.</summary>
    NotTested,
}
