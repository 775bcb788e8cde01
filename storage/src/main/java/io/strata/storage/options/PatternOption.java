package io.strata.storage.options;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A family of table options whose key names a field, such as
 * {@code fields.<field>.aggregate-function}: declared once with its {@link ConfigOption.Scope},
 * the value an unset key reads as, and a description. Values are compared as trimmed,
 * lower-case text (the readers of these options parse them case-insensitively).
 */
public final class PatternOption {
    private static final String FIELD = "<field>";

    private final String form;
    private final Pattern regex;
    private final ConfigOption.Scope scope;
    private final String defaultText;
    private final String description;

    private PatternOption(String form, ConfigOption.Scope scope, String defaultText, String description) {
        int at = form.indexOf(FIELD);
        this.form = form;
        this.regex = Pattern.compile(
                Pattern.quote(form.substring(0, at)) + "([^.]+)" + Pattern.quote(form.substring(at + FIELD.length())));
        this.scope = scope;
        this.defaultText = defaultText;
        this.description = description;
    }

    /** @param form the documented key with {@code <field>} where the field name goes */
    public static PatternOption definesTable(String form, String defaultText, String description) {
        return new PatternOption(form, ConfigOption.Scope.TABLE, defaultText, description);
    }

    public String form() {
        return form;
    }

    public ConfigOption.Scope scope() {
        return scope;
    }

    public String defaultText() {
        return defaultText;
    }

    public String description() {
        return description;
    }

    public boolean matches(String key) {
        return regex.matcher(key).matches();
    }

    /** The effective value of a raw value ({@code null}: unset) in the form values are compared in. */
    String effective(String raw) {
        return raw == null ? defaultText : raw.trim().toLowerCase(Locale.ROOT);
    }
}
