"""group members: a row for each player who joins a group after it was made; blank sheets kept

Revision ID: 1c7d9e3f5a20
Revises: b24e1d0c9a57
Create Date: 2026-11-27 23:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '1c7d9e3f5a20'
down_revision = 'b24e1d0c9a57'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'group_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('folded', sa.String(length=160), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id', 'folded', name='uq_group_members_group_folded'),
    )
    with op.batch_alter_table('group_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_members_group_id'), ['group_id'], unique=False)
    op.create_table(
        'blank_sheet_pdfs',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('html_hash', sa.String(length=64), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('html_hash'),
    )


def downgrade():
    op.drop_table('blank_sheet_pdfs')
    with op.batch_alter_table('group_members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_members_group_id'))
    op.drop_table('group_members')
