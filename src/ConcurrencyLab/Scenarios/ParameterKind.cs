namespace ConcurrencyLab.Scenarios;

/// <summary>The type of a scenario parameter's value.</summary>
public enum ParameterKind
{
    /// <summary>A whole number.</summary>
    WholeNumber,

    /// <summary>A number that may have a fraction.</summary>
    Number,

    /// <summary>A comma-separated list of whole numbers, such as degrees <c>4,40</c>.</summary>
    WholeNumberList,

    /// <summary>Free text.</summary>
    Text,

    /// <summary>On or off: <c>true</c> or <c>false</c>; on the command line, a flag that takes no value.</summary>
    Switch,
}
