"""sheet_pdfs: rendered score sheets kept by game, version and paper (issue 16)

Revision ID: 8c5385d581a2
Revises: 3d9cb868f94c
Create Date: 2026-11-23 19:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8c5385d581a2'
down_revision = '3d9cb868f94c'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('sheet_pdfs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('paper', sa.String(length=8), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'version', 'paper', name='uq_sheet_pdfs_game_version_paper')
    )
    with op.batch_alter_table('sheet_pdfs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sheet_pdfs_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('sheet_pdfs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sheet_pdfs_game_id'))

    op.drop_table('sheet_pdfs')
