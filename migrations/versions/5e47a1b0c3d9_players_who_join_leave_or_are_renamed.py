"""players who join late, leave early or are renamed: the game's seats over the rounds and its changes

Revision ID: 5e47a1b0c3d9
Revises: 1c7d9e3f5a20
Create Date: 2026-11-28 01:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5e47a1b0c3d9'
down_revision = '1c7d9e3f5a20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seating', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('seating')
