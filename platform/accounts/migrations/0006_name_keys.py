"""Every display name's key (``accounts.models.user_name_key``). Of display names that then read
the same, the oldest account's keeps it; the others get " 2", " 3"… The key's unique column
replaces the lower-cased display name's unique index."""

from django.db import migrations

from accounts.names import name_clean, name_key

MAX = 40


def name_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken = set()
    for user in User.objects.exclude(display_name="").order_by("pk").only("pk", "display_name"):
        shown = user.display_name
        candidate, n = shown, 1
        while name_key(candidate) in taken:
            n += 1
            suffix = f" {n}"
            candidate = name_clean(shown)[: MAX - len(suffix)] + suffix
        key = name_key(candidate)
        taken.add(key)
        fields = {"name_key": key}
        if candidate != shown:
            fields["display_name"] = candidate
        User.objects.filter(pk=user.pk).update(**fields)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_signup_footprints_name_key")]

    operations = [
        migrations.RunPython(name_keys, migrations.RunPython.noop),
        # The name key is unique; lower-casing in the database folded only ASCII on SQLite.
        migrations.RemoveConstraint(model_name="user", name="accounts_user_display_name_ci_unique"),
    ]
