namespace ConcurrencyLab.Results;

/// <summary>Where a published figure comes from, so a reader knows what to check it against.</summary>
internal enum FigureSource
{
    /// <summary>The post's text, tables included.</summary>
    Text,

    /// <summary>An image in the post (a screenshot, a chart): the text does not state it.</summary>
    Image,

    /// <summary>The post's published code.</summary>
    Code,

    /// <summary>The lab's own reading of the post's figures (a core count inferred from a default degree, a rule of thumb made exact).</summary>
    LabReading,
}
