"""Display names made as the forms store them (NFKC, trimmed) and unique without regard to case:
of names that are then the same, the oldest account keeps it, the others get " 2", " 3"…"""

import unicodedata

from django.db import migrations

MAX = 40


def _clean(value):
    return " ".join(unicodedata.normalize("NFKC", value).split())


def unique_display_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken = set()
    for user in User.objects.exclude(display_name="").order_by("pk").only("pk", "display_name"):
        name = _clean(user.display_name)[:MAX]
        candidate, n = name, 1
        while candidate.lower() in taken:
            n += 1
            suffix = f" {n}"
            candidate = name[: MAX - len(suffix)] + suffix
        taken.add(candidate.lower())
        if candidate != user.display_name:
            User.objects.filter(pk=user.pk).update(display_name=candidate)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_login_throttle")]

    operations = [migrations.RunPython(unique_display_names, migrations.RunPython.noop)]
