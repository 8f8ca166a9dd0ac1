# The hand and its actions named in the admin in the staff member's language.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_lz4_compression'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='hand',
            options={'ordering': ('-id',), 'verbose_name': 'hand', 'verbose_name_plural': 'hands'},
        ),
        migrations.AlterModelOptions(
            name='handaction',
            options={'ordering': ('hand', 'seq'), 'verbose_name': 'hand action', 'verbose_name_plural': 'hand actions'},
        ),
    ]
