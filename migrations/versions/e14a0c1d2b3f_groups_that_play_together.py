"""groups that play together

Revision ID: e14a0c1d2b3f
Revises: 8c5385d581a2
Create Date: 2026-11-23 19:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e14a0c1d2b3f'
down_revision = '8c5385d581a2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('groups',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('edit_key_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.String(length=32), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_group_id'), ['group_id'], unique=False)
        batch_op.create_foreign_key('fk_games_group_id_groups', 'groups', ['group_id'], ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint('fk_games_group_id_groups', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_games_group_id'))
        batch_op.drop_column('group_id')

    op.drop_table('groups')
