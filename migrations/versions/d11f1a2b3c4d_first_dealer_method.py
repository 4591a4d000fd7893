"""how the first dealer was chosen (games.dealing)

Revision ID: d11f1a2b3c4d
Revises: c34af5bb42eb
Create Date: 2026-11-23 19:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd11f1a2b3c4d'
down_revision = 'c34af5bb42eb'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('dealing', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('dealing')
