"""contract rummy: buys of the current deal, and each round's buys and exact cut

Revision ID: f15c0a7b9e21
Revises: e14a0c1d2b3f
Create Date: 2026-11-23 21:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f15c0a7b9e21'
down_revision = 'e14a0c1d2b3f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('buys', sa.JSON(), nullable=True))
    for table in ('rounds', 'round_revisions'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('buys', sa.JSON(), nullable=True))
            batch_op.add_column(sa.Column('exact_cut', sa.String(length=40), nullable=True))


def downgrade():
    for table in ('round_revisions', 'rounds'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('exact_cut')
            batch_op.drop_column('buys')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('buys')
